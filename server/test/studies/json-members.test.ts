import { afterAll, describe, expect, it } from 'vitest';
import { jsonArrayLength, jsonMembers } from '../../src/studies/json-members.ts';
import { ResultsReader } from '../../src/studies/results-reader.ts';

// A study point's outputs come from a few top-level members of its results.json; the results reader finds
// them in the text instead of parsing the whole file (its mesh and fields). Each member must come out as
// JSON.parse of the whole text would give it, and a text that is not one JSON object must still be refused.
const bytes = (text: string) => new TextEncoder().encode(text);

function members(text: string, names: string[]): Record<string, unknown> {
  const b = bytes(text);
  const out: Record<string, unknown> = {};
  for (const [name, [start, end]] of jsonMembers(b, names))
    out[name] = JSON.parse(new TextDecoder().decode(b.subarray(start, end)));
  return out;
}

const tricky = {
  fields: {
    u: [
      [1.5e-3, -2e10, 0],
      [3, 4, 5],
    ],
    note: 'a "quoted" } ] [ { string, with \\ and \u00e9 🙂',
  },
  tetrahedra: [
    [1, 2, 3, 4],
    [2, 3, 4, 5],
  ],
  'a "name"': { '}': '{' },
  quantities: { max_von_mises_Pa: 1.25e8, max_displacement_m: 3.5e-6, label: 'x,y', ok: true, none: null },
  modes: [
    { frequency: 12.5, rigid_body: false },
    { frequency: 0, rigid_body: true },
  ],
  empty: [],
  nested: [[], [[]], {}, ''],
};

describe('top-level members of a JSON text', () => {
  it('are what JSON.parse of the whole text has, compact or pretty-printed', () => {
    const names = Object.keys(tricky);
    for (const text of [
      JSON.stringify(tricky),
      JSON.stringify(tricky, null, 2),
      `\n ${JSON.stringify(tricky)}\t\r\n`,
    ])
      expect(members(text, names)).toEqual(JSON.parse(text));
    expect(members(JSON.stringify(tricky), ['quantities', 'missing'])).toEqual({
      quantities: tricky.quantities,
    });
    expect(members('{}', ['quantities'])).toEqual({});
    expect(members(' { } ', ['quantities'])).toEqual({});
  });

  it('take the last of a repeated name, as JSON.parse does', () => {
    expect(members('{"q":1,"q":{"a":2}}', ['q'])).toEqual({ q: { a: 2 } });
  });

  it('count an array’s items without parsing them', () => {
    for (const value of [
      [],
      [1],
      [[1, 2], [3]],
      ['a,b', '[', '"]', '\\'],
      [{}],
      [{ a: [1, 2] }, 3],
      [[]],
      [''],
      tricky.tetrahedra,
    ]) {
      for (const text of [
        JSON.stringify(value),
        JSON.stringify(value, null, 1),
        ` ${JSON.stringify(value)} `,
      ]) {
        const b = bytes(text);
        expect(jsonArrayLength(b, 0, b.length), text).toBe(value.length);
      }
    }
  });

  it('refuse a text that is not one JSON object', () => {
    for (const text of [
      '',
      '  ',
      '[]',
      '"x"',
      '{"a":1',
      '{"a":"x}',
      '{"a":1} x',
      '{"a" 1}',
      '{"a":}',
      '{"a":[1,2}',
      '{a:1}',
      '{"a":1,}',
    ])
      expect(() => jsonMembers(bytes(text), ['a']), text).toThrow(SyntaxError);
  });
});

describe('the results reader’s summary', () => {
  const reader = new ResultsReader();
  afterAll(() => reader.close());

  it('reads the outputs of a results file as a full parse would', async () => {
    const results = {
      ...tricky,
      solver_info: { elements: 99 },
      s_parameters: { frequencies: [1e9], matrix: [[[0.1, 0.2]]], port_ids: [1] },
    };
    expect(await reader.summary(Buffer.from(JSON.stringify(results, null, 2)))).toEqual({
      quantities: tricky.quantities,
      frequencies: [12.5],
      sParameters: { frequencies: [1e9], matrix: [[[0.1, 0.2]]], portIds: [1] },
      tetrahedra: 2,
    });
    const { tetrahedra: _, ...noMesh } = results;
    expect((await reader.summary(Buffer.from(JSON.stringify(noMesh)))).tetrahedra).toBe(99);
    await expect(reader.summary(Buffer.from('{"quantities":{"a":1}'))).rejects.toThrow(/results/);
  });
});
