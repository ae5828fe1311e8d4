// Blueprint's styles for the signed-out pages; the rest ship with the signed-in screens (SignedInRoutes).
import 'virtual:blueprint-public.css';
import './views/shell/shell.css';
import { NonIdealState } from '@blueprintjs/core';
import { Icons } from '@blueprintjs/icons';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { shouldRetryRead } from './api/retryPolicy';
import { messages } from './domain/messages';
import { startI18n } from './i18n';
import { App } from './views/App';
import { CrashBoundary } from './views/CrashBoundary';
import { createErrorReporter } from './views/errorReporting';
import { SessionProvider } from './views/session/SessionProvider';

// Error reporting sends only when a DSN is configured at build time; without one Sentry stays off.
// Sentry downloads once the page is idle after the first render; errors before that wait for it.
const sentryDsn = import.meta.env.VITE_SENTRY_DSN as string | undefined;
const errorReporter = createErrorReporter({ dsn: sentryDsn });

// Every icon up front, in one chunk: a control-room screen that loses its connection later must
// not be left with empty boxes where icons would have loaded on demand.
void Icons.loadAll({ loader: 'all' });

// Top-level await: the first render waits for the stored language's texts (Arabic is a chunk of its own).
const i18n = await startI18n();

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: shouldRetryRead,
    },
  },
});

function Crashed() {
  return (
    <main className="sw-center">
      <NonIdealState icon="error" title={messages.somethingWentWrongContactSupport} />
    </main>
  );
}

// The error boundary reports what it catches; errors that escape it are reported here.
const rootOptions = sentryDsn
  ? {
      onUncaughtError: (error: unknown, info: { componentStack?: string }) =>
        errorReporter.report(error, { kind: 'uncaught', componentStack: info.componentStack }),
    }
  : {};

createRoot(document.getElementById('root')!, rootOptions).render(
  <StrictMode>
    <CrashBoundary
      fallback={<Crashed />}
      onCrash={(error, componentStack) => errorReporter.report(error, { kind: 'boundary', componentStack })}
    >
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <SessionProvider>
            <App />
          </SessionProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </CrashBoundary>
  </StrictMode>,
);

const whenIdle = (run: () => void) =>
  'requestIdleCallback' in window ? requestIdleCallback(run, { timeout: 3000 }) : setTimeout(run, 1000);
// A failed download leaves the errors waiting; the next page load tries again.
whenIdle(() => void errorReporter.start().catch(() => undefined));
