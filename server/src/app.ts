import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { AccountService } from './accounts/account-service.ts';
import { registerTokenRoutes } from './accounts/api-token-routes.ts';
import { ApiTokenService } from './accounts/api-token-service.ts';
import { registerAuthRoutes } from './accounts/auth-routes.ts';
import { installBearerAuth } from './accounts/bearer-auth.ts';
import { installCsrfProtection } from './accounts/csrf.ts';
import { installCurrentUser } from './accounts/current-user.ts';
import { PasswordHasher } from './accounts/password-hasher.ts';
import { RateLimiter } from './accounts/rate-limiter.ts';
import { registerAdminRoutes } from './admin/admin-routes.ts';
import { DebugService } from './admin/debug-service.ts';
import type { AppContext } from './app-context.ts';
import { createBilling } from './billing/billing.ts';
import { registerBillingRoutes } from './billing/billing-routes.ts';
import { registerLocalCheckoutRoutes } from './billing/local-checkout-routes.ts';
import { registerStripeWebhookRoute } from './billing/stripe-webhook-route.ts';
import { subscriptionInfoLane } from './billing/subscription-info-lane.ts';
import { registerUsageRoutes } from './billing/usage-routes.ts';
import { UsageSync } from './billing/usage-sync.ts';
import { createCompute, createQueue } from './compute.ts';
import type { AppConfig } from './config.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { EngineHealthProbe } from './engine/engine-health.ts';
import { engineLocation } from './engine/engine-location.ts';
import { ChainSources } from './fea/chain-sources.ts';
import { registerFeaRoutes } from './fea/fea-routes.ts';
import { FeaService } from './fea/fea-service.ts';
import { statusFastLane } from './fea/status-fast-lane.ts';
import { CompletedReplies } from './fea/status-replies.ts';
import { ConvertService } from './geometry/convert-service.ts';
import { registerGeometryRoutes } from './geometry/geometry-routes.ts';
import { ProblemMarkersService } from './geometry/problem-markers.ts';
import { MB, uploadLimitFor } from './geometry/upload-limits.ts';
import { transferSessionUploads, UploadService } from './geometry/upload-service.ts';
import { StorageUploadStore } from './geometry/upload-store.ts';
import { installBodyDepthLimit } from './http/body-depth.ts';
import { installJsonCompression } from './http/compress-json.ts';
import { frameworkErrors, installErrorHandler } from './http/errors.ts';
import { fastLaneOf, serverWithFastLane } from './http/fast-lane.ts';
import { ApiRegistry } from './http/openapi.ts';
import { builtPageHeaders } from './http/page-policy.ts';
import { lazyChildLogger, OneLinePerRequest } from './http/request-logger.ts';
import { createRouter } from './http/route.ts';
import { installSecurityHeaders, SECURITY_HEADER_OPTIONS } from './http/security-headers.ts';
import { isApiPath, registerWebApp, sendPageNotFound } from './http/web-app.ts';
import { AdmissionLock } from './jobs/admission-lock.ts';
import { transferSessionJobs } from './jobs/job-owner.ts';
import { registerRecentJobsRoute } from './jobs/recent-jobs.ts';
import { PgStatusFeed } from './jobs/status-feed.ts';
import { MaterialLibrary } from './materials/material-library.ts';
import { registerMaterialRoutes } from './materials/material-routes.ts';
import { RetentionSweeper } from './retention-sweeper.ts';
import { loadOrCreateSecrets } from './secrets.ts';
import { installSessions } from './sessions/session-plugin.ts';
import { SessionService } from './sessions/session-service.ts';
import { ResultsReader } from './studies/results-reader.ts';
import { registerStudyRoutes } from './studies/study-routes.ts';
import { StudyScheduler } from './studies/study-scheduler.ts';
import { StudyService } from './studies/study-service.ts';
import { StudyStore } from './studies/study-store.ts';

export const APP_VERSION = '0.1.0';

export interface BuildOptions {
  /** Run migrations on start-up (default true; `fieldline migrate` exists for operators). */
  migrate?: boolean;
  /** Start the job queue (default true). */
  startQueue?: boolean;
  logger?: boolean;
}

/** Builds the whole server. main.ts and the tests both start from here. */
export async function buildApp(
  config: AppConfig,
  options: BuildOptions = {},
): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    childLoggerFactory: lazyChildLogger,
    logController: new OneLinePerRequest(),
    serverFactory: serverWithFastLane(),
    trustProxy: config.trustProxy,
    bodyLimit: 256 * 1024 * 1024, // meshes travel as JSON to /api/fea/submit
    frameworkErrors,
  });
  const secrets = loadOrCreateSecrets(config.dataDir);
  const { db, dialect, close } = openDatabase(config.databaseUrl, (err) =>
    app.log.warn({ err }, 'database connection lost while idle; the next query reconnects'),
  );
  if (options.migrate !== false) await migrateToLatest(db);

  // The embedded queue runs jobs in this process's children; with BullMQ or Batch, workers do.
  const engine = engineLocation(config, config.computeBackend === 'embedded', app.log);
  const compute = createCompute(config, db, secrets, engine, app.log);
  const sessions = new SessionService(db, secrets.sessionKey);
  const ctx: AppContext = {
    config,
    secrets,
    db,
    dialect,
    log: app.log,
    sessions,
    sessionCookie: { secure: config.secureCookies, maxAgeSeconds: 30 * 24 * 3600 },
    // Anonymous-session objects that follow a guest who signs in; add uploads etc. to the list.
    accounts: new AccountService(db, sessions, new PasswordHasher(), new RateLimiter(db), [
      async (trx, sessionHash, userId) => {
        const moved = await transferSessionJobs(trx, sessionHash, userId);
        compute.jobs.statusCache.invalidateSession(sessionHash);
        return moved;
      },
      transferSessionUploads,
    ]),
    engine,
    engineHealth: new EngineHealthProbe(engine),
    jobs: compute.jobs,
    // Several API processes share one PostgreSQL: each hears the others' job updates (docs/compute.md).
    statusFeed:
      dialect === 'postgres' && config.compute.statusFeed
        ? new PgStatusFeed(config.databaseUrl, compute.jobs.statusCache, app.log)
        : null,
    queue: createQueue(config, compute, app.log),
    compute,
    uploads: new UploadService(db, new StorageUploadStore(compute.storage, join(config.dataDir, 'tmp'))),
    billing: createBilling(config, db, compute, app.log),
    materials: MaterialLibrary.load(config.materialsFile),
  };
  // Open beta: every new account starts with the welcome grant, recorded in the ledger.
  ctx.accounts.onRegister.push((trx, userId) =>
    compute.ledger.grantWelcome(userId, config.compute.welcomeGrantTokens, trx),
  );
  const sweeper = new RetentionSweeper(
    { db, jobs: ctx.jobs, uploads: ctx.uploads, log: app.log, retentionHours: config.compute.retentionHours },
    config.compute.retentionSweepSeconds,
  );

  await app.register(fastifyCookie);
  const securityHeaders = installSecurityHeaders(
    app,
    builtPageHeaders(join(config.webDistDir, 'index.html'), SECURITY_HEADER_OPTIONS),
  );
  // Every API route is declared once with `route` (Fastify route + OpenAPI entry from the same schemas).
  const api = new ApiRegistry();
  installErrorHandler(app, {
    pageNotFound: sendPageNotFound,
    isApiPath,
    allowedMethods: (url) => api.methodsFor(url),
  });
  installJsonCompression(app);
  installBodyDepthLimit(app);
  installCsrfProtection(app, { allowedOrigins: [config.publicOrigin] });
  installSessions(app, ctx.sessions);
  const cachedUsers = installCurrentUser(app, ctx.accounts.users, ctx.sessions);
  // Personal API tokens (`Authorization: Bearer fl_…`; docs/api.md): after the session hooks, which skip bearer requests.
  const apiTokens = new ApiTokenService(db, secrets.sessionKey);
  installBearerAuth(app, {
    tokens: apiTokens,
    users: ctx.accounts.users,
    limiter: new RateLimiter(db),
    limits: config.apiTokenRateLimits,
  });

  // Each service gets the collaborators it uses, never the whole context.
  const markers = new ProblemMarkersService(ctx.jobs, db);
  const admission = new AdmissionLock(db, dialect);
  const fea = new FeaService({
    jobs: ctx.jobs,
    queue: ctx.queue,
    uploads: ctx.uploads,
    accounts: compute.accounts,
    materials: ctx.materials,
    engineHealth: ctx.engineHealth,
    markers,
    admission,
    completed: new CompletedReplies(compute.storage, config.compute.statusReplyCacheMb * MB),
    log: app.log,
    limits: {
      jobMemoryLimitMb: config.jobMemoryLimitMb,
      minEstimateSeconds: config.compute.minEstimateSeconds,
      zipMaxExpandedMb: config.zipMaxExpandedMb,
      retentionHours: config.compute.retentionHours,
    },
  });
  // Status polls answered from memory before Fastify when everything is cached (same bytes as the route).
  const lane = fastLaneOf(app.server);
  if (lane) lane.logger = app.log;
  lane?.add(statusFastLane({ fea, sessions: ctx.sessions, users: cachedUsers, securityHeaders }));
  // The usage panel's poll, from the same per-user cache the route reads (emptied by any usage change).
  lane?.add(
    subscriptionInfoLane({
      billing: ctx.billing.service,
      sessions: ctx.sessions,
      users: cachedUsers,
      securityHeaders,
    }),
  );
  // Design studies: each point an ordinary job, released as the owner's plan has room (docs/studies.md).
  const studyStore = new StudyStore(db);
  const resultsReader = new ResultsReader();
  const studyScheduler = new StudyScheduler({
    store: studyStore,
    fea,
    jobs: ctx.jobs,
    queue: ctx.queue,
    userPlans: compute.userPlans,
    admission,
    storage: compute.storage,
    reader: resultsReader,
    minEstimateSeconds: config.compute.minEstimateSeconds,
    log: app.log,
  });
  const studies = new StudyService({
    store: studyStore,
    fea,
    jobs: ctx.jobs,
    uploads: ctx.uploads,
    accounts: compute.accounts,
    admission,
    storage: compute.storage,
    minEstimateSeconds: config.compute.minEstimateSeconds,
    log: app.log,
    wake: () => studyScheduler.wake(),
  });
  ctx.studyScheduler = studyScheduler;
  // A point's job finishing (here, or in another process as the status feed tells) moves its study at once.
  ctx.jobs.onFinished.push((jobId) => studyScheduler.jobChanged(jobId));
  ctx.statusFeed?.onStatus.push((jobId) => studyScheduler.jobChanged(jobId));
  const debug = new DebugService({
    db,
    jobs: ctx.jobs,
    queue: ctx.queue,
    userPlans: compute.userPlans,
    storage: compute.storage.blobs,
    config,
  });

  const route = createRouter(app, api);
  registerAuthRoutes(route, { accounts: ctx.accounts, sessionCookie: ctx.sessionCookie });
  registerTokenRoutes(route, apiTokens);
  registerFeaRoutes(route, {
    fea,
    jobs: ctx.jobs,
    sessions: ctx.sessions,
    sessionCookie: ctx.sessionCookie,
    engineTestHooks: config.compute.engineTestHooks,
    chainSources: new ChainSources(ctx.jobs),
  });
  registerRecentJobsRoute(route, ctx.jobs);
  registerStudyRoutes(route, studies, config.compute.engineTestHooks);
  // Multipart parsing (and its per-request hooks) only where uploads are taken.
  await app.register(async (uploadScope) => {
    await uploadScope.register(fastifyMultipart);
    registerGeometryRoutes(createRouter(uploadScope, api), {
      convert: new ConvertService(engine, ctx.uploads, config),
      markers,
      uploads: ctx.uploads,
      uploadLimitFor: (user) =>
        uploadLimitFor(user, compute.userPlans, {
          maxUploadMb: config.maxUploadMb,
          guestMaxModelMb: config.compute.guestMaxModelMb,
        }),
      jobs: ctx.jobs,
      sessions: ctx.sessions,
      sessionCookie: ctx.sessionCookie,
    });
  });
  registerMaterialRoutes(route, ctx.materials);
  registerBillingRoutes(route, ctx.billing.service);
  registerUsageRoutes(
    route,
    new UsageSync({ db, accounts: compute.accounts, metering: compute.metering, queue: ctx.queue }),
  );
  registerLocalCheckoutRoutes(route, ctx.billing.local);
  await registerStripeWebhookRoute(app, api, ctx.billing.webhooks);
  registerAdminRoutes(route, debug);
  app.get('/api/docs', async () => api.document(APP_VERSION));

  if (existsSync(config.webDistDir)) {
    await registerWebApp(app, config.webDistDir);
  } else {
    app.get('/', async (_request, reply) =>
      reply
        .type('text/plain')
        .send('Fieldline API is running. Build the web app with `npm run build` to serve the UI.'),
    );
  }

  await ctx.statusFeed?.start();
  app.addHook('onClose', async () => {
    await ctx.statusFeed?.stop();
    await studyScheduler.stop();
    await resultsReader.close();
    sweeper.stop();
    await ctx.queue.stop(config.compute.shutdownGraceSeconds * 1000);
    await engine.standby?.close();
    await close();
  });
  if (options.startQueue !== false) {
    app.addHook('onReady', async () => {
      await ctx.queue.start();
      engine.standby?.start();
      sweeper.start();
      studyScheduler.start();
    });
  }
  return { app, ctx };
}
