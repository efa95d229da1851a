import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';

const USAGE = `Usage: fieldline <command>
  serve              run the API server, web app and embedded job queue
  migrate            apply database migrations and exit
  health             print the engine's health report`;

async function main(argv: string[]): Promise<number> {
  const [command = 'serve'] = argv;
  const config = loadConfig();
  switch (command) {
    case 'serve': {
      const { app } = await buildApp(config);
      const shutdown = async (signal: string) => {
        app.log.info({ signal }, 'shutting down');
        await app.close();
        process.exit(0);
      };
      process.once('SIGINT', () => void shutdown('SIGINT'));
      process.once('SIGTERM', () => void shutdown('SIGTERM'));
      await app.listen({ host: config.host, port: config.port });
      app.log.info(`Fieldline is serving on ${config.publicOrigin}`);
      return -1; // keep running
    }
    case 'migrate': {
      const { db, close } = openDatabase(config.databaseUrl);
      const applied = await migrateToLatest(db);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      await close();
      return 0;
    }
    case 'health': {
      const { app, ctx } = await buildApp(config, { startQueue: false, logger: false });
      console.log(JSON.stringify(await ctx.engineHealth.get(), null, 2));
      await app.close();
      return 0;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
