// The top-level members of a JSON object's text, found without parsing the others: a study point's outputs
// need a results file's `quantities` (and a few small members), and JSON.parse of the whole file — its mesh
// and fields, ≈ 370 kB for the 3,000-tetrahedron bracket — cost the results reader ≈ 4–6 ms a point
// (bench/studies). Plain top-level functions without imports: results-reader.ts puts their source into its
// worker thread (JSON_MEMBER_FUNCTIONS), so they call each other only and hold no closures.

/** The index of the first byte at or after `i` that is not JSON whitespace. */
export function jsonSkipSpace(bytes: Uint8Array, i: number): number {
  for (;;) {
    const c = bytes[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

/** From a string's opening quote at `i` to just after its closing one. */
export function jsonSkipString(bytes: Uint8Array, i: number): number {
  for (i++; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 0x5c) i++;
    else if (c === 0x22) return i + 1;
  }
  throw new SyntaxError(`results: unterminated string at byte ${i}`);
}

/** From a value's first byte at `i` to just after its last. */
export function jsonSkipValue(bytes: Uint8Array, i: number): number {
  const c = bytes[i];
  if (c === 0x22) return jsonSkipString(bytes, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    while (i < bytes.length) {
      const d = bytes[i];
      if (d === 0x22) {
        i = jsonSkipString(bytes, i);
        continue;
      }
      if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    throw new SyntaxError(`results: unbalanced brackets at byte ${i}`);
  }
  const start = i;
  while (i < bytes.length) {
    const d = bytes[i];
    if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) break;
    i++;
  }
  if (i === start) throw new SyntaxError(`results: a value expected at byte ${i}`);
  return i;
}

/**
 * Each wanted member's value in the JSON object `bytes` as [start, end) byte offsets (the last one when a
 * name repeats, as JSON.parse keeps the last); the caller parses those alone. Throws a SyntaxError when the
 * text is not one object of members (unbalanced brackets, an unterminated string, text after the end).
 */
export function jsonMembers(bytes: Uint8Array, wanted: string[]): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  let i = jsonSkipSpace(bytes, 0);
  if (bytes[i] !== 0x7b) throw new SyntaxError(`results: not a JSON object at byte ${i}`);
  i = jsonSkipSpace(bytes, i + 1);
  if (bytes[i] === 0x7d) i++;
  else
    for (;;) {
      if (bytes[i] !== 0x22) throw new SyntaxError(`results: a member name expected at byte ${i}`);
      const nameEnd = jsonSkipString(bytes, i);
      const name = JSON.parse(new TextDecoder().decode(bytes.subarray(i, nameEnd))) as string;
      i = jsonSkipSpace(bytes, nameEnd);
      if (bytes[i] !== 0x3a) throw new SyntaxError(`results: ":" expected at byte ${i}`);
      const start = jsonSkipSpace(bytes, i + 1);
      const end = jsonSkipValue(bytes, start);
      if (wanted.includes(name)) out.set(name, [start, end]);
      i = jsonSkipSpace(bytes, end);
      if (bytes[i] === 0x2c) {
        i = jsonSkipSpace(bytes, i + 1);
        continue;
      }
      if (bytes[i] !== 0x7d) throw new SyntaxError(`results: "," or "}" expected at byte ${i}`);
      i++;
      break;
    }
  if (jsonSkipSpace(bytes, i) !== bytes.length)
    throw new SyntaxError(`results: text after the object at byte ${i}`);
  return out;
}

/** How many items the JSON array at `bytes[start, end)` holds, without parsing them. */
export function jsonArrayLength(bytes: Uint8Array, start: number, end: number): number {
  let depth = 0;
  let commas = 0;
  let empty = true;
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    if (c === 0x22) {
      empty = false;
      i = jsonSkipString(bytes, i) - 1;
    } else if (c === 0x5b || c === 0x7b) {
      if (depth > 0) empty = false;
      depth++;
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (depth === 1 && c === 0x2c) commas++;
    else if (depth === 1 && c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) empty = false;
  }
  return empty ? 0 : commas + 1;
}

/** Every function above, for a worker's source (each one's `.name` is what the others call it). */
export const JSON_MEMBER_FUNCTIONS = [
  jsonSkipSpace,
  jsonSkipString,
  jsonSkipValue,
  jsonMembers,
  jsonArrayLength,
];
