import { cellError, nameKey, normalisedCell, storableCell } from '../../src/domain/bulkCells';
import {
  BULK_MESSAGES,
  type BulkColumn,
  type BulkKindDefinition,
  notOnSite,
} from '../../src/domain/bulkKinds';
import { messages } from '../../src/domain/messages';
import type { Db } from '../db/database';
import type { sites } from '../db/schema';
import { HttpError } from '../http/errors';
import { loadSiteLists, type SiteLists } from './siteLists';
import { type RowError, UPLOAD_KIND_HANDLERS, type ValidRow } from './uploadKinds';

type SiteRow = typeof sites.$inferSelect;

export interface CheckedRow {
  rowNumber: number;
  cells: Record<string, string>;
  errors: RowError[];
}

/** Which sheet column holds which kind column, from the header row's texts. */
export function headerColumns(
  definition: BulkKindDefinition,
  header: readonly string[],
): Map<string, number> {
  const byText = new Map<string, number>();
  header.forEach((text, index) => {
    if (text.trim() !== '' && !byText.has(nameKey(text))) byText.set(nameKey(text), index);
  });
  const positions = new Map<string, number>();
  const missing: string[] = [];
  for (const column of definition.columns) {
    const index = byText.get(nameKey(column.label)) ?? byText.get(nameKey(column.key));
    if (index === undefined) {
      if (column.required) missing.push(column.label);
    } else positions.set(column.key, index);
  }
  if (missing.length > 0 || positions.size === 0) {
    throw new HttpError(
      422,
      BULK_MESSAGES.missingHeader,
      missing.length > 0 ? { file: missing.join(', ') } : undefined,
    );
  }
  return positions;
}

/**
 * Checks rows of one upload against the site: each cell by its column's rule, list and worker cells
 * against the site's rows, the kind's cross-column rules, duplicates inside the file and against
 * the site. Rows are checked one at a time so an upload's rows can stream through it.
 */
export class UploadValidator {
  private readonly handler;
  private readonly seen = new Set<string>();

  private constructor(
    private readonly definition: BulkKindDefinition,
    private readonly lists: SiteLists,
    private readonly existing: Set<string>,
  ) {
    this.handler = UPLOAD_KIND_HANDLERS[definition.kind];
  }

  static async forSite(db: Db, site: SiteRow, definition: BulkKindDefinition): Promise<UploadValidator> {
    const handler = UPLOAD_KIND_HANDLERS[definition.kind];
    const [lists, existing] = await Promise.all([
      loadSiteLists(db, site, definition),
      handler.existingKeys(db, site),
    ]);
    return new UploadValidator(definition, lists, existing);
  }

  /** The cells of a sheet row by column key, trimmed and normalised. */
  cellsOf(positions: Map<string, number>, sheetCells: readonly string[]): Record<string, string> {
    const cells: Record<string, string> = {};
    for (const column of this.definition.columns) {
      const index = positions.get(column.key);
      const text = index === undefined ? '' : (sheetCells[index] ?? '').trim();
      cells[column.key] = normalisedCell(column, storableCell(text));
    }
    return cells;
  }

  check(rowNumber: number, cells: Record<string, string>): { row: CheckedRow; valid: ValidRow | null } {
    const errors: RowError[] = [];
    const ids: Record<string, number> = {};
    for (const column of this.definition.columns) {
      const text = cells[column.key] ?? '';
      const error = cellError(column, text) ?? (text === '' ? null : this.resolve(column, text, ids));
      if (error) errors.push({ column: column.key, message: error });
    }
    const valid: ValidRow = { rowNumber, cells, ids };
    if (errors.length === 0 && this.handler.rowErrors) errors.push(...this.handler.rowErrors(valid));
    if (errors.length === 0) {
      const label = this.definition.label;
      const fileKey = this.definition.identity.map((key) => nameKey(cells[key] ?? '')).join('\u001f');
      const siteKey = this.handler.siteKey(valid);
      if (siteKey !== null && this.existing.has(siteKey)) {
        errors.push({ column: this.handler.siteKeyColumn, message: messages.duplicateName(label) });
      } else if (fileKey.replaceAll('\u001f', '') !== '' && this.seen.has(fileKey)) {
        errors.push({ column: this.definition.identity[0], message: messages.duplicateName(label) });
      }
      this.seen.add(fileKey);
    }
    return { row: { rowNumber, cells, errors }, valid: errors.length === 0 ? valid : null };
  }

  private resolve(column: BulkColumn, text: string, ids: Record<string, number>): string | null {
    if (column.type === 'worker') {
      const id = this.lists.workersByTag.get(nameKey(text));
      if (id === undefined) return notOnSite(column.label);
      ids[column.key] = id;
      return null;
    }
    if (column.type !== 'list' || !column.list || column.list === 'yesNo') return null;
    const id = this.lists.lists[column.list]?.ids.get(nameKey(text));
    if (id === undefined) return notOnSite(column.label);
    ids[column.key] = id;
    return null;
  }
}
