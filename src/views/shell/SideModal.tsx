import { Drawer, DrawerSize, Position } from '@blueprintjs/core';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface SideModalContent {
  title: string;
  content: ReactNode;
  /** A style class for the modal, so a screen can size or theme its own content. */
  className?: string;
}

interface SideModalControls {
  open(modal: SideModalContent): void;
  close(): void;
}

const SideModalContext = createContext<SideModalControls | null>(null);

/**
 * The side modal of spec §2: any screen can open it with arbitrary content and a style class.
 * It slides in from the inline end (right in English, left in Arabic).
 */
export function SideModalProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const [modal, setModal] = useState<SideModalContent | null>(null);
  const close = useCallback(() => setModal(null), []);
  const controls = useMemo(() => ({ open: setModal, close }), [close]);
  return (
    <SideModalContext.Provider value={controls}>
      {children}
      <Drawer
        isOpen={modal !== null}
        onClose={close}
        title={modal?.title}
        className={['sw-side-modal', modal?.className].filter(Boolean).join(' ')}
        position={i18n.dir() === 'rtl' ? Position.LEFT : Position.RIGHT}
        size={DrawerSize.SMALL}
      >
        <div className="sw-side-modal-body" data-testid="side-modal">
          {modal?.content}
        </div>
      </Drawer>
    </SideModalContext.Provider>
  );
}

export function useSideModal(): SideModalControls {
  const controls = useContext(SideModalContext);
  if (!controls) throw new Error('useSideModal outside SideModalProvider');
  return controls;
}
