/**
 * The rows of the first worksheet of an uploaded .xlsx, read a chunk at a time and defended
 * against hostile files. exceljs 4.4 inflates every zip entry into memory with no cap and builds
 * the whole sheet, so uploads do not go through it: the zip's central directory is judged first
 * (zipDirectory.ts), each part is inflated under the size it declares (cappedInflate.ts), and the
 * XML is read by the small scanner below, which refuses DOCTYPE and entity declarations and holds
 * at most one tag or text run beyond the chunk it is reading.
 */
import { BULK_MESSAGES } from '../../src/domain/bulkKinds';
import { checkUploadFile, UPLOAD_FILE_MESSAGES } from '../../src/domain/uploadFile';
import { inflateEntry, throwIfCancelled, USER_CANCELLED } from './cappedInflate';
import {
  readZipDirectory,
  type ZipDirectory,
  type ZipEntry,
  type ZipLimits,
  ZipRefused,
} from './zipDirectory';

export class UploadFileRejected extends Error {
  constructor(
    readonly statusCode: 413 | 415 | 422,
    message: string,
  ) {
    super(message);
    this.name = 'UploadFileRejected';
  }
}

/** One non-empty row: `rowNumber` as Excel numbers it (1 = header), cells as text, by column. */
export interface SheetRow {
  rowNumber: number;
  cells: string[];
}

export interface ReadWorkbookOptions {
  /** Most rows under the header; one more is refused with BULK_MESSAGES.tooManyRows. */
  maxRows: number;
  /** When aborted, the read stops with an Error whose message is 'USER_CANCELLED'. */
  signal?: AbortSignal;
}

const MIB = 1024 * 1024;

const ZIP_LIMITS: ZipLimits = {
  maxEntries: 1000,
  maxEntryBytes: 100 * MIB,
  maxTotalBytes: 200 * MIB,
  maxRatio: 200,
  ratioCheckFromBytes: MIB,
};

export const XLSX_READER_MESSAGES = {
  unreadable: BULK_MESSAGES.unreadable,
  entityDeclarations: 'The file contains XML entity declarations, which are not accepted',
  longToken: 'The file holds a cell or tag of more than a million characters; it is not a normal spreadsheet',
} as const;

/** Excel's own limits: columns A..XFD, rows 1..1,048,576. */
const MAX_COLUMNS = 16_384;
const MAX_ROW_NUMBER = 1_048_576;
/** Longest tag or text run the scanner holds while waiting for its end (a cell is ≤ 32,767). */
const MAX_TOKEN_CHARS = 1_000_000;

function unreadable(): UploadFileRejected {
  return new UploadFileRejected(422, XLSX_READER_MESSAGES.unreadable);
}

function entityDeclarations(): UploadFileRejected {
  return new UploadFileRejected(422, XLSX_READER_MESSAGES.entityDeclarations);
}

// ---------------------------------------------------------------------------------------------
// XML scanning

type Attributes = Record<string, string>;

interface XmlHandlers {
  /** Element and attribute names arrive without their namespace prefix (`x:row` is `row`). */
  open(name: string, attributes: Attributes): void;
  close(name: string): void;
  text(text: string): void;
}

// A tag cannot contain '<' (not even in an attribute value), so these patterns stop at one, and a
// tag is matched once the next '<' has arrived: no match then means a malformed tag.
const START_TAG = /<([^\s/>!?<]+)((?:\s+[^\s=/><]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/y;
const END_TAG = /<\/([^\s><]+)\s*>/y;
const ATTRIBUTE = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ENTITY_REFERENCE = /&([^;&\s]*);/g;
const PREDEFINED_ENTITIES = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
]);
const DECLARATION = /^<!(?:DOCTYPE|ENTITY)/i;
const DECLARATION_PREFIX_CHARS = '<!DOCTYPE'.length;

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY_REFERENCE, (_reference, name: string) => {
    const predefined = PREDEFINED_ENTITIES.get(name);
    if (predefined !== undefined) return predefined;
    const code = /^#x[0-9a-f]+$/i.test(name)
      ? Number.parseInt(name.slice(2), 16)
      : /^#[0-9]+$/.test(name)
        ? Number.parseInt(name.slice(1), 10)
        : Number.NaN;
    // Only character references and the five predefined entities exist without a DOCTYPE.
    if (!Number.isInteger(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      throw unreadable();
    }
    return String.fromCodePoint(code);
  });
}

function parseAttributes(source: string): Attributes {
  const attributes: Attributes = Object.create(null);
  if (source === '') return attributes;
  for (const match of source.matchAll(ATTRIBUTE)) {
    attributes[localName(match[1])] = decodeEntities(match[2] ?? match[3]);
  }
  return attributes;
}

/** The XML a part is made of, fed in chunks; events go to the handlers as soon as they are whole. */
class XmlScanner {
  private pending = '';
  /** How far into `pending` the search for the end of its first (incomplete) token has gone. */
  private searchedTo = 0;

  constructor(private readonly handlers: XmlHandlers) {}

  write(chunk: string): void {
    this.consume(this.pending + chunk, false);
  }

  end(): void {
    this.consume(this.pending, true);
    if (this.pending.trim() !== '') throw unreadable();
  }

  private consume(buffer: string, ended: boolean): void {
    const stop = this.scan(buffer, ended);
    this.pending = buffer.slice(stop.at);
    this.searchedTo = stop.searchedTo;
    if (this.pending.length > MAX_TOKEN_CHARS) {
      throw new UploadFileRejected(422, XLSX_READER_MESSAGES.longToken);
    }
  }

  /** Where scanning stopped (the start of an incomplete token) and how far it looked past it. */
  private scan(buffer: string, ended: boolean): { at: number; searchedTo: number } {
    let position = 0;
    const searchStart = (from: number, minimum: number) =>
      position === 0 ? Math.max(from + minimum, this.searchedTo) : from + minimum;
    const incomplete = (terminatorLength: number) => ({
      at: position,
      searchedTo: Math.max(0, buffer.length - position - terminatorLength + 1),
    });

    while (position < buffer.length) {
      if (buffer[position] !== '<') {
        const next = buffer.indexOf('<', searchStart(position, 0));
        if (next < 0 && !ended) return incomplete(1);
        const end = next < 0 ? buffer.length : next;
        this.handlers.text(decodeEntities(buffer.slice(position, end)));
        position = end;
        continue;
      }
      if (buffer.startsWith('<?', position)) {
        const end = buffer.indexOf('?>', searchStart(position, 2));
        if (end < 0) return incomplete(2);
        position = end + 2;
        continue;
      }
      if (buffer.startsWith('<!--', position)) {
        const end = buffer.indexOf('-->', searchStart(position, 4));
        if (end < 0) return incomplete(3);
        position = end + 3;
        continue;
      }
      if (buffer.startsWith('<![CDATA[', position)) {
        const end = buffer.indexOf(']]>', searchStart(position, 9));
        if (end < 0) return incomplete(3);
        this.handlers.text(buffer.slice(position + 9, end));
        position = end + 3;
        continue;
      }
      if (buffer.startsWith('<!', position) || buffer.length - position < 2) {
        const head = buffer.slice(position, position + DECLARATION_PREFIX_CHARS);
        if (DECLARATION.test(head)) throw entityDeclarations();
        // '<!' followed by too little to tell a comment or CDATA from a declaration yet.
        if (!ended && head.length < DECLARATION_PREFIX_CHARS) return { at: position, searchedTo: 0 };
        throw unreadable();
      }

      // Matched only once the next '<' is in: each tag is then matched once, however it arrives.
      if (buffer.indexOf('<', searchStart(position, 1)) < 0 && !ended) return incomplete(1);
      const pattern = buffer[position + 1] === '/' ? END_TAG : START_TAG;
      pattern.lastIndex = position;
      const match = pattern.exec(buffer);
      if (match === null) throw unreadable();
      const name = localName(match[1]);
      if (pattern === END_TAG) {
        this.handlers.close(name);
      } else {
        this.handlers.open(name, parseAttributes(match[2]));
        if (match[3] === '/') this.handlers.close(name);
      }
      position = pattern.lastIndex;
    }
    return { at: position, searchedTo: 0 };
  }
}

/** Watches raw part text for a DOCTYPE or an entity declaration, across chunk boundaries. */
class DeclarationWatch {
  private tail = '';

  check(text: string): void {
    const window = this.tail + text;
    if (/<!(?:DOCTYPE|ENTITY)/i.test(window)) throw entityDeclarations();
    this.tail = window.slice(-(DECLARATION_PREFIX_CHARS - 1));
  }
}

function toUploadRejection(error: unknown): unknown {
  if (!(error instanceof ZipRefused)) return error;
  if (error.reason === 'notZip') return new UploadFileRejected(415, UPLOAD_FILE_MESSAGES.wrongType);
  return new UploadFileRejected(422, error.message);
}

/**
 * Feeds a part's XML to a scanner, one inflated chunk at a time, and yields after each chunk so a
 * caller can take what the scanner's handlers collected (and stop early).
 */
async function* scanPart(
  archive: Buffer,
  entry: ZipEntry,
  handlers: XmlHandlers,
  signal: AbortSignal | undefined,
): AsyncGenerator<void, void, undefined> {
  const scanner = new XmlScanner(handlers);
  const watch = new DeclarationWatch();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const decode = (chunk?: Buffer) => {
    try {
      return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
    } catch {
      throw unreadable();
    }
  };
  for await (const chunk of inflateEntry(archive, entry, signal)) {
    const text = decode(chunk);
    watch.check(text);
    scanner.write(text);
    yield;
  }
  const rest = decode();
  watch.check(rest);
  scanner.write(rest);
  scanner.end();
  yield;
}

async function scanWholePart(
  archive: Buffer,
  entry: ZipEntry,
  handlers: XmlHandlers,
  signal: AbortSignal | undefined,
): Promise<void> {
  for await (const _ of scanPart(archive, entry, handlers, signal)) {
    // The handlers collect as they go.
  }
}

/** A part this reader does not parse may still not carry a DOCTYPE or an entity declaration. */
async function checkUnparsedPart(archive: Buffer, entry: ZipEntry, signal: AbortSignal | undefined) {
  const watch = new DeclarationWatch();
  for await (const chunk of inflateEntry(archive, entry, signal)) {
    watch.check(chunk.toString('latin1'));
  }
}

// ---------------------------------------------------------------------------------------------
// The workbook's parts

interface Relationship {
  id: string;
  type: string;
  target: string;
}

function readRelationships(): XmlHandlers & { relationships: Relationship[] } {
  const relationships: Relationship[] = [];
  return {
    relationships,
    open(name, attributes) {
      if (name !== 'Relationship' || attributes.TargetMode === 'External') return;
      relationships.push({
        id: attributes.Id ?? '',
        type: attributes.Type ?? '',
        target: attributes.Target ?? '',
      });
    },
    close() {},
    text() {},
  };
}

/** A relationship's target as a part name: relative to `xl/`, or from the package root with '/'. */
function resolvePartName(baseFolder: string, target: string): string {
  const segments = target.startsWith('/') ? [] : baseFolder.split('/').filter(Boolean);
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) throw unreadable();
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  return segments.join('/');
}

function readWorkbook(): XmlHandlers & { date1904: boolean; firstSheetRelationship: string | null } {
  const handlers = {
    date1904: false,
    firstSheetRelationship: null as string | null,
    open(name: string, attributes: Attributes) {
      if (name === 'workbookPr') {
        handlers.date1904 = attributes.date1904 === '1' || attributes.date1904 === 'true';
      } else if (name === 'sheet' && handlers.firstSheetRelationship === null) {
        handlers.firstSheetRelationship = attributes.id ?? null;
      }
    },
    close() {},
    text() {},
  };
  return handlers;
}

/** Built-in number formats that show a date or a time (ECMA-376 §18.8.30). */
const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/**
 * Whether a custom format code shows a date or time: d, m, y, h or s outside quoted text,
 * escaped characters, `_x` spacing, `*x` fills and bracketed parts such as [Red] or [$€-407]
 * (elapsed [h], [mm], [ss] are time).
 */
export function isDateFormatCode(formatCode: string): boolean {
  const shown = formatCode.replace(/"[^"]*"|\\.|[_*].|\[[^\]]*\]/g, (part) =>
    /^\[(?:h+|m+|s+)\]$/i.test(part) ? 'h' : '',
  );
  return /[dmyhs]/i.test(shown);
}

/** Which cell styles (indexes into cellXfs) show numbers as dates or times. */
function readDateStyles(): XmlHandlers & { dateStyles: boolean[] } {
  const customFormats = new Map<number, string>();
  const dateStyles: boolean[] = [];
  const openElements: string[] = [];
  return {
    dateStyles,
    open(name, attributes) {
      const parent = openElements.at(-1);
      openElements.push(name);
      const formatId = Number(attributes.numFmtId);
      if (name === 'numFmt' && parent === 'numFmts') {
        customFormats.set(formatId, attributes.formatCode ?? '');
      } else if (name === 'xf' && parent === 'cellXfs') {
        const custom = customFormats.get(formatId);
        dateStyles.push(
          custom === undefined ? BUILT_IN_DATE_FORMATS.has(formatId) : isDateFormatCode(custom),
        );
      }
    },
    close() {
      openElements.pop();
    },
    text() {},
  };
}

/** OOXML writes characters XML cannot hold (a carriage return, say) as `_xHHHH_`. */
function decodeEscapedCharacters(text: string): string {
  if (!text.includes('_x')) return text;
  return text.replace(/_x([0-9a-fA-F]{4})_/g, (_escape, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/** Collects the text of `<t>` runs of string items (`si`, `is`), leaving out phonetic runs. */
class StringItemText {
  private text: string | null = null;
  private inText = false;
  private phoneticDepth = 0;

  get active(): boolean {
    return this.text !== null;
  }

  start(): void {
    this.text = '';
    this.inText = false;
    this.phoneticDepth = 0;
  }

  open(name: string): void {
    if (this.text === null) return;
    if (name === 'rPh') this.phoneticDepth++;
    else if (name === 't' && this.phoneticDepth === 0) this.inText = true;
  }

  close(name: string): void {
    if (name === 'rPh') this.phoneticDepth--;
    else if (name === 't') this.inText = false;
  }

  add(text: string): void {
    if (this.inText && this.text !== null) this.text += text;
  }

  finish(): string {
    const text = decodeEscapedCharacters(this.text ?? '');
    this.text = null;
    return text;
  }
}

function readSharedStrings(): XmlHandlers & { strings: string[] } {
  const strings: string[] = [];
  const item = new StringItemText();
  return {
    strings,
    open(name) {
      if (name === 'si') item.start();
      else item.open(name);
    },
    close(name) {
      if (name === 'si' && item.active) strings.push(item.finish());
      else item.close(name);
    },
    text(text) {
      item.add(text);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Cell text

const DAY_MS = 86_400_000;
const EXCEL_1900_EPOCH = Date.UTC(1899, 11, 30);
const EXCEL_1904_EPOCH = Date.UTC(1904, 0, 1);
/** 9999-12-31, the last day Excel shows. */
const LAST_EXCEL_SERIAL = 2_958_465;

const twoDigits = (value: number) => String(value).padStart(2, '0');

/**
 * An Excel date serial as text: whole days as YYYY-MM-DD, a time of day alone (serial < 1) as
 * HH:mm, both as YYYY-MM-DD HH:mm. Seconds are dropped as Excel's h:mm drops them.
 */
export function excelSerialText(serial: number, date1904: boolean): string | null {
  if (!Number.isFinite(serial) || serial < 0 || serial > LAST_EXCEL_SERIAL) return null;
  const totalSeconds = Math.round(serial * 86_400);
  const days = Math.floor(totalSeconds / 86_400);
  const minutesOfDay = Math.floor((totalSeconds % 86_400) / 60);
  const time = `${twoDigits(Math.floor(minutesOfDay / 60))}:${twoDigits(minutesOfDay % 60)}`;
  if (serial < 1) return time;
  let date: string;
  if (date1904) {
    date = new Date(EXCEL_1904_EPOCH + days * DAY_MS).toISOString().slice(0, 10);
  } else if (days === 60) {
    // Lotus 1-2-3's 29 February 1900, which Excel keeps for compatibility.
    date = '1900-02-29';
  } else {
    // Serials before that day count from 31 December 1899; later ones from a day earlier.
    const epoch = days < 60 ? EXCEL_1900_EPOCH + DAY_MS : EXCEL_1900_EPOCH;
    date = new Date(epoch + days * DAY_MS).toISOString().slice(0, 10);
  }
  return minutesOfDay === 0 ? date : `${date} ${time}`;
}

/** A `t="d"` cell holds an ISO 8601 date-time. */
function isoDateText(value: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2}))?/.exec(value);
  if (match === null) return value;
  const [, date, hours, minutes] = match;
  return hours === undefined || (hours === '00' && minutes === '00') ? date : `${date} ${hours}:${minutes}`;
}

function columnIndex(reference: string): number {
  let column = 0;
  let index = 0;
  for (; index < reference.length; index++) {
    const code = reference.charCodeAt(index) & ~0x20; // upper case
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
  }
  if (index === 0 || column > MAX_COLUMNS) throw unreadable();
  return column - 1;
}

interface CellReadingContext {
  sharedStrings: readonly string[];
  dateStyles: readonly boolean[];
  date1904: boolean;
}

function cellText(
  type: string,
  value: string,
  inlineText: string | null,
  style: number,
  context: CellReadingContext,
) {
  switch (type) {
    case 's': {
      if (value === '') return '';
      const index = Number(value);
      const text = Number.isInteger(index) ? context.sharedStrings[index] : undefined;
      if (text === undefined) throw unreadable();
      return text;
    }
    case 'inlineStr':
      return inlineText ?? value;
    case 'str':
      return decodeEscapedCharacters(value);
    case 'e':
      return value;
    case 'b':
      return value === '' ? '' : value.trim() === '1' || value.trim() === 'true' ? 'TRUE' : 'FALSE';
    case 'd':
      return isoDateText(value);
    default: {
      if (value.trim() === '') return '';
      const number = Number(value);
      if (!Number.isFinite(number)) return value;
      if (context.dateStyles[style]) return excelSerialText(number, context.date1904) ?? String(number);
      return String(number);
    }
  }
}

/** Turns sheet XML events into rows; whole rows wait in `completed` for the reader to take. */
class SheetRows implements XmlHandlers {
  readonly completed: SheetRow[] = [];
  sheetDataEnded = false;
  private inSheetData = false;
  private rowNumber = 0;
  private cells: string[] | null = null;
  private column = -1;
  private cellType: string | null = null;
  private cellStyle = 0;
  private cellValue = '';
  private inValue = false;
  private readonly inlineString = new StringItemText();
  private inlineText: string | null = null;

  constructor(private readonly context: CellReadingContext) {}

  open(name: string, attributes: Attributes): void {
    if (name === 'sheetData') {
      this.inSheetData = true;
    } else if (name === 'row' && this.inSheetData) {
      this.rowNumber = attributes.r === undefined ? this.rowNumber + 1 : Number(attributes.r);
      if (!Number.isInteger(this.rowNumber) || this.rowNumber < 1 || this.rowNumber > MAX_ROW_NUMBER) {
        throw unreadable();
      }
      this.cells = [];
      this.column = -1;
    } else if (name === 'c' && this.cells !== null) {
      this.column = attributes.r === undefined ? this.column + 1 : columnIndex(attributes.r);
      if (this.column >= MAX_COLUMNS) throw unreadable();
      this.cellType = attributes.t ?? 'n';
      this.cellStyle = attributes.s === undefined ? 0 : Number(attributes.s);
      this.cellValue = '';
      this.inlineText = null;
    } else if (this.cellType !== null) {
      if (name === 'v') this.inValue = true;
      else if (name === 'is') this.inlineString.start();
      else this.inlineString.open(name);
    }
  }

  close(name: string): void {
    if (name === 'sheetData') {
      this.inSheetData = false;
      this.sheetDataEnded = true;
    } else if (name === 'row' && this.cells !== null) {
      if (this.cells.length > 0) {
        this.completed.push({
          rowNumber: this.rowNumber,
          cells: Array.from(this.cells, (cell) => cell ?? ''),
        });
      }
      this.cells = null;
    } else if (name === 'c' && this.cells !== null && this.cellType !== null) {
      const text = cellText(this.cellType, this.cellValue, this.inlineText, this.cellStyle, this.context);
      if (text !== '') this.cells[this.column] = text;
      this.cellType = null;
    } else if (name === 'v') {
      this.inValue = false;
    } else if (name === 'is' && this.inlineString.active) {
      this.inlineText = this.inlineString.finish();
    } else {
      this.inlineString.close(name);
    }
  }

  text(text: string): void {
    if (this.inValue) this.cellValue += text;
    else this.inlineString.add(text);
  }
}

// ---------------------------------------------------------------------------------------------
// The reader

/** The server has no file name to check: the upload's content is checked as an .xlsx's. */
const CONTENT_CHECK_NAME = 'upload.xlsx';

function checkUploadBytes(bytes: Buffer): void {
  const result = checkUploadFile({
    name: CONTENT_CHECK_NAME,
    size: bytes.length,
    head: bytes.subarray(0, 8),
  });
  if (result === 1) throw new UploadFileRejected(415, UPLOAD_FILE_MESSAGES.wrongType);
  if (result === 2) throw new UploadFileRejected(413, UPLOAD_FILE_MESSAGES.tooLarge);
}

function requirePart(directory: ZipDirectory, name: string): ZipEntry {
  const entry = directory.find(name);
  if (entry === undefined) throw new UploadFileRejected(415, UPLOAD_FILE_MESSAGES.wrongType);
  return entry;
}

interface WorkbookParts {
  sheet: ZipEntry;
  sharedStrings: ZipEntry | undefined;
  styles: ZipEntry | undefined;
  date1904: boolean;
}

async function locateParts(
  archive: Buffer,
  directory: ZipDirectory,
  signal?: AbortSignal,
): Promise<WorkbookParts> {
  const workbook = readWorkbook();
  await scanWholePart(archive, requirePart(directory, 'xl/workbook.xml'), workbook, signal);
  const relationshipsEntry = directory.find('xl/_rels/workbook.xml.rels');
  if (relationshipsEntry === undefined || workbook.firstSheetRelationship === null) throw unreadable();
  const relationships = readRelationships();
  await scanWholePart(archive, relationshipsEntry, relationships, signal);

  const partOfType = (typeSuffix: string, fallback: string) => {
    const relationship = relationships.relationships.find((candidate) => candidate.type.endsWith(typeSuffix));
    return directory.find(relationship === undefined ? fallback : resolvePartName('xl', relationship.target));
  };
  const sheetRelationship = relationships.relationships.find(
    (candidate) => candidate.id === workbook.firstSheetRelationship,
  );
  const sheet = sheetRelationship && directory.find(resolvePartName('xl', sheetRelationship.target));
  if (sheet === undefined) throw unreadable();
  return {
    sheet,
    sharedStrings: partOfType('/sharedStrings', 'xl/sharedStrings.xml'),
    styles: partOfType('/styles', 'xl/styles.xml'),
    date1904: workbook.date1904,
  };
}

async function* readFirstSheet(
  archive: Buffer,
  { maxRows, signal }: ReadWorkbookOptions,
): AsyncGenerator<SheetRow, void, undefined> {
  checkUploadBytes(archive);
  const directory = readZipDirectory(archive, ZIP_LIMITS);
  requirePart(directory, '[Content_Types].xml');
  requirePart(directory, 'xl/workbook.xml');

  const parts = await locateParts(archive, directory, signal);
  const parsed = new Set([
    directory.find('xl/workbook.xml'),
    directory.find('xl/_rels/workbook.xml.rels'),
    parts.sheet,
    parts.sharedStrings,
    parts.styles,
  ]);
  for (const entry of directory.entries) {
    if (!parsed.has(entry) && /\.(?:xml|rels|vml)$/i.test(entry.name)) {
      await checkUnparsedPart(archive, entry, signal);
    }
  }

  const styles = readDateStyles();
  if (parts.styles !== undefined) await scanWholePart(archive, parts.styles, styles, signal);
  const sharedStrings = readSharedStrings();
  if (parts.sharedStrings !== undefined)
    await scanWholePart(archive, parts.sharedStrings, sharedStrings, signal);

  const rows = new SheetRows({
    sharedStrings: sharedStrings.strings,
    dateStyles: styles.dateStyles,
    date1904: parts.date1904,
  });
  let rowsRead = 0;
  for await (const _ of scanPart(archive, parts.sheet, rows, signal)) {
    for (const row of rows.completed) {
      // The first row is the header, which maxRows does not count.
      if (rowsRead > maxRows) throw new UploadFileRejected(422, BULK_MESSAGES.tooManyRows);
      rowsRead++;
      throwIfCancelled(signal);
      yield row;
    }
    rows.completed.length = 0;
    // Nothing after sheetData (merged cells, page setup…) makes a row.
    if (rows.sheetDataEnded) return;
  }
}

/**
 * The non-empty rows of the first worksheet of an .xlsx held in memory (at most 10 MB), read as
 * the caller iterates. Throws UploadFileRejected: 415 for a file that is not an .xlsx, 413 above
 * 10 MB, 422 for a hostile or unreadable workbook and for more than `maxRows` rows under the
 * header; an aborted `signal` ends it with an Error('USER_CANCELLED'). Formulas read as the value
 * the file stored for them, never evaluated.
 */
export async function* readWorkbookRows(
  bytes: Buffer,
  options: ReadWorkbookOptions,
): AsyncGenerator<SheetRow, void, undefined> {
  try {
    throwIfCancelled(options.signal);
    yield* readFirstSheet(bytes, options);
  } catch (error) {
    if (error instanceof Error && error.message === USER_CANCELLED) throw error;
    throw toUploadRejection(error);
  }
}
