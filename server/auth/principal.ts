import type { Role } from '../../src/domain/roles';

/** Who is calling: resolved from the bearer token on every protected request. */
export interface Principal {
  id: number;
  role: Role;
  clientId: number | null;
  groupOfSitesId: number | null;
  permissions: string[];
  sessionId: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export function principalOf(request: { principal: Principal | null }): Principal {
  if (!request.principal) throw new Error('route reached without authentication');
  return request.principal;
}
