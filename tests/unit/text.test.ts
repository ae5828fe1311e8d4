import fc from 'fast-check';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { parseHelmetEvents, parseNodes, parsePositions } from '../../src/domain/ingestValidation';
import { controlCharactersMessage, hasControlCharacters, SafeString } from '../../src/domain/text';

const now = Date.parse('2026-11-22T08:00:00Z');

describe('the text rule', () => {
  it('refuses NUL, the other C0 and C1 controls, DEL and the noncharacters in one-line text', () => {
    for (const text of [
      'a\u0000b',
      '\u0001',
      'x\u001Fy',
      'tab\there',
      'two\nlines',
      'cr\r',
      'del\u007F',
      '\u0085',
      '\u009F',
      '\uFFFE',
      '\uFFFF',
      '\uFDD0',
    ])
      expect(hasControlCharacters(text), JSON.stringify(text)).toBe(true);
  });

  it('refuses a lone surrogate but takes a character beyond the BMP', () => {
    expect(hasControlCharacters('half \uD800 of a pair')).toBe(true);
    expect(hasControlCharacters('\uDC00', { multiline: true })).toBe(true);
    expect(hasControlCharacters('\u{1F477}')).toBe(false);
    expect(Compile(SafeString()).Check('\uD800')).toBe(false);
  });

  it('takes ordinary text in any script', () => {
    for (const text of [
      '',
      'Tower A – Level 1',
      'عامل البناء',
      '工地',
      'O’Brien & Sons',
      'emoji 👷‍♀️',
      '\u00A0no-break',
    ])
      expect(hasControlCharacters(text), text).toBe(false);
  });

  it('lets free text keep tab and line breaks, never NUL', () => {
    expect(hasControlCharacters('line one\r\n\tline two', { multiline: true })).toBe(false);
    expect(hasControlCharacters('note\u0000', { multiline: true })).toBe(true);
    expect(hasControlCharacters('bell\u0007', { multiline: true })).toBe(true);
  });

  it('is the same rule in the schema as in code, for any string', () => {
    const oneLine = Compile(SafeString());
    const freeText = Compile(SafeString({ multiline: true }));
    const anyText = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: fc.constantFrom('a', ' ', '\u0000', '\t', '\n', '\u0085', '\uFFFF', 'é') }),
    );
    fc.assert(
      fc.property(anyText, (text) => {
        expect(oneLine.Check(text)).toBe(!hasControlCharacters(text));
        expect(freeText.Check(text)).toBe(!hasControlCharacters(text, { multiline: true }));
      }),
      { numRuns: 500 },
    );
    // 500 generated strings: seconds, not milliseconds, while the whole suite shares two cores.
  }, 30_000);

  it('keeps the other limits of the field and refuses blank text when asked', () => {
    const tag = Compile(SafeString({ minLength: 1, maxLength: 5, nonBlank: true }));
    expect(tag.Check('HLM-1')).toBe(true);
    expect(tag.Check('HLM-12')).toBe(false);
    expect(tag.Check('   ')).toBe(false);
    expect(tag.Check('a\u0000')).toBe(false);
  });

  it('words a refusal by the field', () => {
    expect(controlCharactersMessage('Search')).toBe('Search must not contain control characters');
  });
});

describe('ingest entries under the text rule', () => {
  const position = (tag: string) => ({
    tag,
    ts: '2026-11-22T07:59:00Z',
    lat: 25.2,
    long: 55.3,
    floorId: 1,
    online: true,
    active: true,
  });

  it('drops a position whose tag holds a control character as controlCharacter, keeping the others', () => {
    const parsed = parsePositions(JSON.stringify([position('HLM\u00000001'), position('HLM-0002')]), now);
    expect(parsed.accepted.map((entry) => entry.tag)).toEqual(['HLM-0002']);
    expect(parsed.rejected.map((rejection) => rejection.reason)).toEqual(['controlCharacter']);
  });

  it('still reports a wrong-typed field before a control character', () => {
    const parsed = parsePositions(JSON.stringify({ ...position('HLM\u0007'), lat: '25.2' }), now);
    expect(parsed.rejected.map((rejection) => rejection.reason)).toEqual(['badShape']);
  });

  it('applies to node ids, node types and helmet event tags', () => {
    const node = {
      networkId: 1,
      nodeId: 'ANC\u0000',
      type: 'anchor',
      bufferUsage: 1,
      linkQuality: 1,
      batteryVoltage: 3.3,
      displacementError: 0,
      ts: '2026-11-22T07:59:00Z',
      lat: 25.2,
      long: 55.3,
    };
    expect(parseNodes(JSON.stringify(node), now).rejected[0].reason).toBe('controlCharacter');
    expect(
      parseNodes(JSON.stringify({ ...node, nodeId: 'ANC-1', type: 'sink\u0085' }), now).rejected[0].reason,
    ).toBe('controlCharacter');
    const event = { tag: 'HLM\u001B', ts: '2026-11-22T07:59:00Z', type: 'sos' };
    expect(parseHelmetEvents(JSON.stringify(event), now).rejected[0].reason).toBe('controlCharacter');
  });
});
