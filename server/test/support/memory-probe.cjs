// Loaded into a test's server process (NODE_OPTIONS=--require, with MEMORY_PROBE_FILE set): on SIGUSR2 it
// runs two full garbage collections and writes the process's memory to that file as JSON, so a test can
// compare what stays alive after a run rather than how much heap V8 happens to keep at that moment.
const file = process.env.MEMORY_PROBE_FILE;
if (file) {
  const { writeFileSync, readFileSync } = require('node:fs');
  require('node:v8').setFlagsFromString('--expose-gc');
  const gc = require('node:vm').runInNewContext('gc');
  process.on('SIGUSR2', () => {
    gc();
    gc();
    const m = process.memoryUsage();
    const anon = /RssAnon:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    const kb = (bytes) => Math.round(bytes / 1024);
    const reading = {
      rssKb: kb(m.rss),
      rssAnonKb: Number(anon),
      heapTotalKb: kb(m.heapTotal),
      heapUsedKb: kb(m.heapUsed),
      externalKb: kb(m.external),
    };
    writeFileSync(`${file}.tmp`, JSON.stringify(reading));
    require('node:fs').renameSync(`${file}.tmp`, file);
  });
}
