// The storage worker thread (worker-pool.ts): the CPU-heavy work on stored objects — sealing and opening
// large objects, parsing a stored results file, serialising and compressing a completed job's status
// reply — runs here, so that no request on the server's event loop waits behind another job's results
// (issue 37). Plain JavaScript with Node's own modules only: it runs as it is under tsx, vitest and the
// compiled server (scripts/build-server.mjs bundles it to server/dist/storage-worker.mjs).
import { parentPort } from 'node:worker_threads';
import { compressSync, packReply } from '../fea/reply-format.mjs';
import { open, seal } from './sealed-format.mjs';

/** A result buffer goes back without a copy when it owns its whole ArrayBuffer (not a pool slice). */
function movable(buffer, transfer) {
  if (buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.byteLength) transfer.push(buffer.buffer);
  return buffer;
}

/** JSON.parse of a stored (sealed) JSON object. */
function openJson(args) {
  return JSON.parse(open(args.key, args.name, args.bytes).toString('utf8'));
}

/** Arrays longer than `maxItems` become `{ $array: length }`: a summary keeps shapes, not data. */
function summarise(value, maxItems) {
  if (Array.isArray(value))
    return value.length > maxItems ? { $array: value.length } : value.map((v) => summarise(v, maxItems));
  if (value && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = summarise(v, maxItems);
    return out;
  }
  return value;
}

const tasks = {
  seal(args, transfer) {
    return movable(seal(args.key, args.name, args.bytes), transfer);
  },
  open(args, transfer) {
    return movable(open(args.key, args.name, args.bytes), transfer);
  },
  /**
   * A completed job's status reply: `head` (job_id, status, progress, message) with the stored results
   * under `results`, serialised, compressed both ways, and packed and sealed for storage as `replyName`.
   */
  statusReply(args, transfer) {
    const results = openJson(args);
    const raw = Buffer.from(JSON.stringify({ ...args.head, results }), 'utf8');
    const reply = compressSync(raw);
    const sealed = seal(args.key, args.replyName, packReply(reply));
    return {
      etag: reply.etag,
      length: reply.length,
      gzip: movable(reply.gzip, transfer),
      br: movable(reply.br, transfer),
      sealed: movable(sealed, transfer),
    };
  },
  /** A stored JSON object's members: those named in `whole` as they are, the rest summarised. */
  summary(args) {
    const value = openJson(args);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const out = {};
    for (const [k, v] of Object.entries(value))
      out[k] = args.whole.includes(k) ? v : summarise(v, args.maxItems);
    return out;
  },
};

parentPort.on('message', ({ id, task, args }) => {
  const transfer = [];
  let value;
  try {
    value = tasks[task](args, transfer);
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
    return;
  }
  parentPort.postMessage({ id, value }, transfer);
});
