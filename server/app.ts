import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyServerOptions, RouteOptions } from 'fastify';
import { heatmapRoutes } from './analytics/heatmapRoutes';
import { historyRoutes } from './analytics/historyRoutes';
import { attendanceRoutes } from './attendance/attendanceRoutes';
import { authRoutes, publicAuthRoutes } from './auth/authRoutes';
import { bulkApiRoutes, bulkMainRoutes } from './bulk/bulkRoutes';
import { openApiRoutes } from './docs/openApiRoutes';
import { electricalRoomRoutes } from './electricalRooms/electricalRoomRoutes';
import { floorRoutes } from './floors/floorRoutes';
import { zoneRoutes } from './floors/zoneRoutes';
import { registerGateway } from './gateway/gatewayRoutes';
import { groupRoutes } from './groups/groupRoutes';
import { consoleContentSecurityPolicy } from './http/contentSecurityPolicy';
import { notFoundMessage } from './http/errorHandler';
import { createListener, registerRouteLayers } from './http/layeredApp';
import { deviceTokenRoutes, ingestRoutes } from './ingest/ingestRoutes';
import { installationRoutes } from './installation/installationRoutes';
import { inventoryMetaRoutes } from './inventory/inventoryMetaRoutes';
import { inventoryRoutes } from './inventory/inventoryRoutes';
import { liveSettingsRoutes } from './live/liveSettingsRoutes';
import { maintenanceSettingsRoutes } from './nodes/maintenanceSettingsRoutes';
import { nodeRoutes } from './nodes/nodeRoutes';
import { operationsRoutes } from './operations/operationsRoutes';
import { createOperationsState, type OperationsState } from './operations/operationsState';
import { gridFieldRoutes } from './permits/gridFieldRoutes';
import { workPermitRoutes } from './permits/workPermitRoutes';
import { powerBiRoutes } from './powerBi/powerBiRoutes';
import { productivityRoutes } from './productivity/productivityRoutes';
import type { Services } from './services';
import { clientRoutes } from './sites/clientRoutes';
import { userRoutes } from './users/userRoutes';
import { workerRoutes } from './workers/workerRoutes';
import { workerStatusRoutes } from './workers/workerStatusRoutes';
import { crewRoutes } from './workforce/crewRoutes';
import { latestAssignmentRoutes } from './workforce/latestAssignmentRoutes';
import { subcontractorRoutes } from './workforce/subcontractorRoutes';
import { workerRoleRoutes } from './workforce/workerRoleRoutes';
import { workshiftRoutes } from './workforce/workshiftRoutes';

export interface AppOptions extends Services {
  logger?: FastifyServerOptions['logger'];
  /** Folder of the built console to serve; omitted in API-only tests. */
  consoleDir?: string;
  /** Sees every route as it is registered (the API reference is written from them). */
  onRoute?: (route: RouteOptions) => void;
  /** What /readyz and /metrics read (server/main.ts fills it in); the database alone when omitted. */
  operations?: OperationsState;
}

/** The HTTP app in layers (http/layeredApp.ts): the error envelope, external plugins, services, routes. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const consoleRoot =
    options.consoleDir && existsSync(resolve(options.consoleDir, 'index.html'))
      ? resolve(options.consoleDir)
      : null;
  const app = createListener({
    logger: options.logger,
    onRoute: options.onRoute,
    bodyLimit: 1024 * 1024,
    // Only behind a known proxy may X-Forwarded-For name the client (login rate limits use it).
    trustProxy: options.config.trustProxy,
    notFound: (request, reply) => {
      const path = request.url.split('?')[0];
      // Client-side routes (/workers, /reset-password/…) load the console, which routes itself.
      if (
        consoleRoot &&
        request.method === 'GET' &&
        !path.startsWith('/api/') &&
        !path.startsWith('/bulk/')
      ) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
      return reply.code(404).send({ status: 'error', message: notFoundMessage(request.method, path) });
    },
  });
  await app.register(helmet, {
    contentSecurityPolicy: consoleContentSecurityPolicy(options.config),
  });
  await app.register(operationsRoutes, {
    state: options.operations ?? createOperationsState(options.db),
    metrics: true,
  });

  const services: Services = {
    db: options.db,
    config: options.config,
    publisher: options.publisher,
    deviceSessions: options.deviceSessions,
  };

  await registerRouteLayers(app, {
    services,
    prefix: '/api',
    publicRoutes: [publicAuthRoutes, liveSettingsRoutes, ingestRoutes, openApiRoutes],
    protectedRoutes: [
      authRoutes,
      userRoutes,
      clientRoutes,
      floorRoutes,
      zoneRoutes,
      inventoryMetaRoutes,
      inventoryRoutes,
      deviceTokenRoutes,
      workerRoleRoutes,
      workerRoutes,
      subcontractorRoutes,
      crewRoutes,
      workshiftRoutes,
      latestAssignmentRoutes,
      groupRoutes,
      workerStatusRoutes,
      heatmapRoutes,
      attendanceRoutes,
      productivityRoutes,
      historyRoutes,
      nodeRoutes,
      maintenanceSettingsRoutes,
      installationRoutes,
      electricalRoomRoutes,
      workPermitRoutes,
      gridFieldRoutes,
      powerBiRoutes,
      bulkMainRoutes,
    ],
  });
  await registerRouteLayers(app, {
    services,
    prefix: '/bulk/api',
    publicRoutes: [],
    protectedRoutes: [bulkApiRoutes],
  });

  // The analytics gateway (Cube's REST API at /cubejs-api/v1) checks the session token itself.
  await registerGateway(app, services);

  if (consoleRoot)
    await app.register(fastifyStatic, { root: consoleRoot, wildcard: false, index: ['index.html'] });
  return app;
}
