import {
  BatchClient,
  CreateComputeEnvironmentCommand,
  CreateJobQueueCommand,
  RegisterJobDefinitionCommand,
} from '@aws-sdk/client-batch';

export const MOTO_REGION = 'us-east-1';

/**
 * A Batch set-up in moto (server mode, scripts/with-moto.sh): a compute environment, a standard and a
 * priority job queue and the worker's job definition. moto's Batch would run containers with docker,
 * which is not available here, so it is switched to its docker-less mode (jobs are marked finished at
 * once) and the caller runs the container's command, `fieldline batch-run <jobId>`, itself.
 */
export async function setUpMotoBatch(base: string) {
  await fetch(`${base}/moto-api/config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ batch: { use_docker: false } }),
  });
  const iam = await fetch(`${base}/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization:
        'AWS4-HMAC-SHA256 Credential=testing/20260101/us-east-1/iam/aws4_request, SignedHeaders=host, Signature=x',
    },
    body: new URLSearchParams({
      Action: 'CreateRole',
      Version: '2010-05-08',
      RoleName: `fieldline-batch-${Date.now()}`,
      AssumeRolePolicyDocument: '{}',
    }),
  });
  const roleArn = /<Arn>([^<]+)<\/Arn>/.exec(await iam.text())?.[1];
  if (!roleArn) throw new Error('moto: CreateRole gave no ARN');
  const batch = new BatchClient({ region: MOTO_REGION, endpoint: base });
  const suffix = Date.now();
  const env = await batch.send(
    new CreateComputeEnvironmentCommand({
      computeEnvironmentName: `fieldline-ce-${suffix}`,
      type: 'UNMANAGED',
      state: 'ENABLED',
      serviceRole: roleArn,
    }),
  );
  const queues: string[] = [];
  for (const [name, priority] of [
    [`fieldline-standard-${suffix}`, 1],
    [`fieldline-priority-${suffix}`, 10],
  ] as const) {
    await batch.send(
      new CreateJobQueueCommand({
        jobQueueName: name,
        state: 'ENABLED',
        priority,
        computeEnvironmentOrder: [{ order: 1, computeEnvironment: env.computeEnvironmentArn }],
      }),
    );
    queues.push(name);
  }
  const def = await batch.send(
    new RegisterJobDefinitionCommand({
      jobDefinitionName: `fieldline-worker-${suffix}`,
      type: 'container',
      containerProperties: {
        image: 'fieldline:worker',
        command: ['batch-run', 'Ref::jobId'],
        resourceRequirements: [
          { type: 'VCPU', value: '1' },
          { type: 'MEMORY', value: '2048' },
        ],
      },
    }),
  );
  return { standard: queues[0] as string, priority: queues[1] as string, definition: def.jobDefinitionName };
}
