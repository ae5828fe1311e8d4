import type { ReactNode } from 'react';
import { Redirect, useLocation } from 'wouter';
import { decideRoute } from '../../domain/routeAccess';
import { useSession } from '../session/SessionProvider';
import { LoadingScreen } from './LoadingScreen';

/**
 * Applies the guard rules of spec §2 to the current location; the decision itself is the pure
 * `decideRoute` in src/domain, unit-tested for every role.
 */
export function RouteGuard({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const { phase, user } = useSession();
  const decision = decideRoute({ path: location, phase, role: user?.user_role ?? null });
  if (decision.kind === 'loading') return <LoadingScreen />;
  if (decision.kind === 'redirect') return <Redirect to={decision.to} replace />;
  return children;
}
