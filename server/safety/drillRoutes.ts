import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdSchema } from '../../src/domain/schemas/sites';
import { SafeString } from '../../src/domain/text';
import { allow } from '../auth/authenticate';
import { principalOf } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import { ok } from '../http/envelope';
import { readDrillComparison } from './drillComparison';
import { evacuationReportPdf } from './drillReportPdf';
import { readEvacuationReport, requireEvacuation } from './evacuationReports';
import type { SafetyServices } from './safetyServices';

/**
 * Drill reports that compare (issue 17): the figures of a site's past evacuations, oldest first,
 * and the report as a PDF. Read by whoever may read the site's evacuation reports.
 */

const SiteParamsSchema = Type.Object({ siteId: IdSchema });
const SessionParamsSchema = Type.Object({ sessionId: SafeString({ minLength: 1, maxLength: 100 }) });

export const drillRoutes: FastifyPluginAsyncTypebox<SafetyServices> = async (app, { db }) => {
  app.get(
    '/api/safety/sites/:siteId/evacuations/figures',
    { preValidation: allow('safety', 'open'), schema: { params: SiteParamsSchema } },
    async (request) => {
      const site = await requireSite(db, principalOf(request), request.params.siteId);
      return ok(await readDrillComparison(db, site.id));
    },
  );

  app.get(
    '/api/safety/evacuations/:sessionId/report.pdf',
    { preValidation: allow('safety', 'open'), schema: { params: SessionParamsSchema } },
    async (request, reply) => {
      const { evacuation, siteName, siteTimeZone } = await requireEvacuation(
        db,
        principalOf(request),
        request.params.sessionId,
      );
      const report = await readEvacuationReport(db, evacuation);
      const file = await evacuationReportPdf(report, { name: siteName, timeZone: siteTimeZone });
      const day = report.startedAt.slice(0, 10);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="evacuation-report-${day}.pdf"`)
        .send(file);
    },
  );
};
