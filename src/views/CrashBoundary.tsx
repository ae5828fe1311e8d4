import { Component, type ErrorInfo, type ReactNode } from 'react';

export interface CrashBoundaryProps {
  /** Shown instead of the tree once a render has thrown. */
  fallback: ReactNode;
  /** Told of every error caught, with React's component stack. */
  onCrash: (error: unknown, componentStack: string | undefined) => void;
  children: ReactNode;
}

interface CrashBoundaryState {
  crashed: boolean;
}

/**
 * The console's last error boundary. React offers boundaries only as class components; this one
 * stands where Sentry's did, so Sentry can download after the first render (src/main.tsx).
 */
export class CrashBoundary extends Component<CrashBoundaryProps, CrashBoundaryState> {
  override state: CrashBoundaryState = { crashed: false };

  static getDerivedStateFromError(): CrashBoundaryState {
    return { crashed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onCrash(error, info.componentStack ?? undefined);
  }

  override render(): ReactNode {
    return this.state.crashed ? this.props.fallback : this.props.children;
  }
}
