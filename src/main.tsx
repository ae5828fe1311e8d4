import '@blueprintjs/core/lib/css/blueprint.css';
import './views/shell/shell.css';
import { NonIdealState } from '@blueprintjs/core';
import * as Sentry from '@sentry/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { isCancelled } from './api/client';
import { messages } from './domain/messages';
import { initI18n } from './i18n';
import { App } from './views/App';
import { SessionProvider } from './views/session/SessionProvider';

// Error reporting only when a DSN is configured at build time; without one Sentry stays off.
const sentryDsn = import.meta.env.VITE_SENTRY_DSN as string | undefined;
if (sentryDsn) {
  Sentry.init({
    dsn: sentryDsn,
    integrations: [Sentry.browserTracingIntegration()],
    tracesSampleRate: 0.3,
  });
}

const i18n = initI18n();

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A cancelled request is not a failure to retry (spec §8: ignored silently).
      retry: (failureCount, error) => !isCancelled(error) && failureCount < 1,
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
const rootOptions = sentryDsn ? { onUncaughtError: Sentry.reactErrorHandler() } : {};

createRoot(document.getElementById('root')!, rootOptions).render(
  <StrictMode>
    <Sentry.ErrorBoundary fallback={<Crashed />}>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <SessionProvider>
            <App />
          </SessionProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </Sentry.ErrorBoundary>
  </StrictMode>,
);
