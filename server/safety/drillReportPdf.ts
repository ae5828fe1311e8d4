import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import bidiFactory from 'bidi-js';
import PDFDocument from 'pdfkit';
import type { EvacuationReport } from '../../src/domain/evacuationReport';
import { type SitePlace, sitePlaceName } from '../../src/domain/placeNames';
import { wallTime } from '../../src/domain/siteClock';

/**
 * The evacuation report as a PDF (issue 17): the session's header, the drill figures, the floors
 * in order of clearing and who was never accounted for. English labels; names and places as
 * stored, Arabic ones shaped and ordered right to left (Noto Sans Arabic, shipped in an npm
 * package, has the Latin letters too, so one font serves every line).
 */

const require = createRequire(import.meta.url);
const FONT_FILE = '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf';
let fontBytes: Buffer | null = null;
const font = () => {
  fontBytes ??= readFileSync(require.resolve(FONT_FILE));
  return fontBytes;
};

const bidi = bidiFactory();
const ARABIC_LETTER = /[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]/;

const PAGE_MARGIN = 50;
const LABEL_WIDTH = 220;
const GAP = 12;
const BODY_SIZE = 10;
const MUTED = '#5f6b7c';

/**
 * A line cut into runs in the order they stand from left to right (Unicode bidirectional
 * algorithm). The font engine shapes an Arabic run and lays it out right to left itself, so such
 * a run goes in its reading order; a left-to-right run (Latin, digits) as it is.
 */
export function visualRuns(text: string): string[] {
  if (!ARABIC_LETTER.test(text)) return [text];
  const levels = bidi.getEmbeddingLevels(text, 'auto');
  const order = bidi.getReorderedIndices(text, levels);
  const mirrored = bidi.getMirroredCharactersMap(text, levels.levels);
  const runs: { rtl: boolean; indices: number[] }[] = [];
  for (const index of order) {
    const rtl = (levels.levels[index] & 1) === 1;
    const last = runs.at(-1);
    if (last && last.rtl === rtl) last.indices.push(index);
    else runs.push({ rtl, indices: [index] });
  }
  return runs.map(({ rtl, indices }) => {
    const chars = indices.map((i) => mirrored.get(i) ?? text[i]);
    // The engine reverses only runs in a right-to-left script: give those their reading order.
    return rtl && ARABIC_LETTER.test(chars.join('')) ? chars.reverse().join('') : chars.join('');
  });
}

type Doc = PDFKit.PDFDocument;

/**
 * Naming features makes PDFKit lay a run out whole; without them it lays it out word by word,
 * which reverses each Arabic word on its own and leaves the words in left-to-right order.
 */
const WHOLE_RUN: PDFKit.Mixins.OpenTypeFeatures[] = ['kern'];

/** Writes one line at (x, y) within `width`, smaller when it would not fit. */
function line(doc: Doc, text: string, x: number, y: number, width: number, size = BODY_SIZE): void {
  const runs = visualRuns(text);
  let fontSize = size;
  const widthOf = (run: string) => doc.fontSize(fontSize).widthOfString(run, { features: WHOLE_RUN });
  const measure = () => runs.reduce((sum, run) => sum + widthOf(run), 0);
  while (fontSize > 6 && measure() > width) fontSize -= 0.5;
  let left = x;
  for (const run of runs) {
    doc.fontSize(fontSize).text(run, left, y, { lineBreak: false, features: WHOLE_RUN });
    left += widthOf(run);
  }
}

function ensureRoom(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - PAGE_MARGIN) {
    doc.addPage();
    doc.y = PAGE_MARGIN;
  }
}

function heading(doc: Doc, text: string): void {
  ensureRoom(doc, 40);
  doc.y += 10;
  doc.fillColor('#1c2127');
  line(doc, text, PAGE_MARGIN, doc.y, doc.page.width - 2 * PAGE_MARGIN, 13);
  doc.y += 22;
}

/** Label and value on one row. */
function field(doc: Doc, label: string, value: string): void {
  ensureRoom(doc, 16);
  const y = doc.y;
  const valueX = PAGE_MARGIN + LABEL_WIDTH + GAP;
  doc.fillColor(MUTED);
  line(doc, label, PAGE_MARGIN, y, LABEL_WIDTH);
  doc.fillColor('#1c2127');
  line(doc, value, valueX, y, doc.page.width - PAGE_MARGIN - valueX);
  doc.y = y + 16;
}

/** "176 s (2:56)": seconds as the figures have them, and minutes:seconds past a minute. */
export function pdfDuration(seconds: number | null, never = 'not reached'): string {
  if (seconds === null) return never;
  if (seconds < 60) return `${seconds} s`;
  const whole = Math.round(seconds);
  const clock = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
  return `${seconds} s (${clock})`;
}

const placeName = (place: SitePlace | null, fallback: string) => (place && sitePlaceName(place)) || fallback;

/** Builds the PDF's bytes; `compress: false` leaves the page streams readable (tests). */
export function evacuationReportPdf(
  report: EvacuationReport,
  site: { name: string; timeZone: string },
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE_MARGIN,
    compress: options.compress ?? true,
    info: { Title: `Evacuation report ${report.startedAt.slice(0, 10)}`, Creator: 'Sitewatch' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.registerFont('Body', font());
  doc.font('Body');
  const time = (iso: string | null) => {
    if (iso === null) return 'still running';
    const { date, time: clock } = wallTime(Date.parse(iso), site.timeZone);
    return `${date} ${clock} (${site.timeZone})`;
  };
  const places = (list: readonly SitePlace[]) => list.map(sitePlaceName).join('; ') || 'none';
  const width = doc.page.width - 2 * PAGE_MARGIN;

  doc.fillColor('#1c2127');
  line(doc, 'Evacuation report', PAGE_MARGIN, PAGE_MARGIN, width, 18);
  doc.y = PAGE_MARGIN + 28;
  doc.fillColor(MUTED);
  line(doc, site.name, PAGE_MARGIN, doc.y, width, 12);
  doc.y += 22;

  field(doc, 'Evacuation session', report.evacuationSessionId);
  field(doc, 'Started', time(report.startedAt));
  field(doc, 'Ended', time(report.endedAt));
  field(doc, 'Duration', pdfDuration(report.durationSeconds, 'still running'));
  field(doc, 'Started by', report.startedBy ?? '—');
  field(doc, 'Ended by', report.endedBy ?? '—');
  field(doc, 'Floors evacuated', places(report.scopePlaces.floors));
  field(doc, 'Zones evacuated', places(report.scopePlaces.zones));
  field(doc, 'Assembly zones', places(report.scopePlaces.assemblyZones));

  const f = report.figures;
  heading(doc, 'Figures');
  field(doc, 'People on the roll', String(f.rollSize));
  field(doc, 'Workers mustered', String(f.mustered));
  field(doc, 'Median time to muster', pdfDuration(f.medianSecondsToMuster, 'nobody mustered'));
  field(doc, '90th percentile time to muster', pdfDuration(f.p90SecondsToMuster, 'nobody mustered'));
  field(doc, 'Maximum time to muster', pdfDuration(f.maxSecondsToMuster, 'nobody mustered'));
  field(doc, '50 % accounted for after', pdfDuration(f.secondsTo50Percent));
  field(doc, '90 % accounted for after', pdfDuration(f.secondsTo90Percent));
  field(doc, '100 % accounted for after', pdfDuration(f.secondsTo100Percent));
  field(doc, 'Alarms sent', String(f.alarmsSent));
  field(doc, 'Alarms undelivered', String(f.alarmsUndelivered));
  field(doc, 'Marks made', String(f.marksMade));
  field(doc, 'Marks undone', String(f.marksUndone));
  field(doc, 'Re-entries', String(f.reEntries));

  heading(doc, 'Floors cleared, in order');
  if (report.floorsCleared.length === 0) field(doc, 'No floor evacuated', '');
  for (const floor of report.floorsCleared)
    field(
      doc,
      placeName(floor.place, `Floor ${floor.floorId}`),
      floor.clearedAfterSeconds === null
        ? `not cleared (${floor.remaining} still there)`
        : `cleared after ${pdfDuration(floor.clearedAfterSeconds)}`,
    );

  heading(doc, `Never accounted for (${report.neverAccounted.length})`);
  if (report.neverAccounted.length === 0)
    field(doc, report.workers.length === 0 ? 'Nobody was included' : 'Everyone was accounted for', '');
  for (const worker of report.neverAccounted)
    field(
      doc,
      worker.name ?? `Worker ${worker.workerId}`,
      [worker.wntInventoryId ?? 'no helmet id', worker.finalStatus, placeName(worker.placeWhenIncluded, '')]
        .filter((part) => part !== '')
        .join(' · '),
    );

  doc.end();
  return done;
}
