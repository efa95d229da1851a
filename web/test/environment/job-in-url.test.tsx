import { act, cleanup, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useJobInUrl } from '../../src/environment/persistence/job-in-url.ts';
import {
  createEnvironmentStore,
  type EnvironmentStore,
} from '../../src/environment/state/environment-state.ts';

afterEach(cleanup);

/** The environment page's use of the hook: the job on screen follows the store, `open` is openJob. */
function Page({ store, opened }: { store: EnvironmentStore; opened: string[] }) {
  useJobInUrl(store, true, (jobId) => {
    opened.push(jobId);
    store.set((s) => ({ analysis: { ...s.analysis, jobId } }));
  });
  return null;
}

const showJob = (store: EnvironmentStore, jobId: string | undefined) =>
  store.set((s) => ({ analysis: { ...s.analysis, jobId } }));

describe('?job= in the address (F5 and back/forward, qa29/qa30)', () => {
  it('back and forward between two jobs open each one again', async () => {
    const store = createEnvironmentStore();
    const opened: string[] = [];
    const router = createMemoryRouter(
      [{ path: '/environment', element: <Page store={store} opened={opened} /> }],
      {
        initialEntries: ['/environment?job=first'],
      },
    );
    showJob(store, 'first');
    render(<RouterProvider router={router} />);
    // a second job opened (Recent Activity): a new history entry
    await act(() => router.navigate('/environment?job=second'));
    expect(opened).toEqual(['second']);
    expect(store.get().analysis.jobId).toBe('second');

    await act(() => router.navigate(-1)); // back
    expect(opened).toEqual(['second', 'first']);
    expect(store.get().analysis.jobId).toBe('first');
    expect(router.state.location.search).toBe('?job=first');

    await act(() => router.navigate(1)); // forward
    expect(opened).toEqual(['second', 'first', 'second']);
    expect(router.state.location.search).toBe('?job=second');
  });

  it('the address follows the job on screen and drops it when none is shown', async () => {
    const store = createEnvironmentStore();
    const opened: string[] = [];
    const router = createMemoryRouter(
      [{ path: '/environment', element: <Page store={store} opened={opened} /> }],
      {
        initialEntries: ['/environment?physics=em'],
      },
    );
    render(<RouterProvider router={router} />);
    await act(async () => showJob(store, 'submitted'));
    expect(router.state.location.search).toBe('?job=submitted'); // physics goes: the job's config fills the form
    await act(async () => showJob(store, undefined)); // a new upload or Clear Data
    expect(router.state.location.search).toBe('');
    expect(opened).toEqual([]);
  });
});
