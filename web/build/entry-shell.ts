import type { Plugin } from 'vite';

interface ModuleGraph {
  getModuleIds(): IterableIterator<string>;
  getModuleInfo(id: string): { isEntry: boolean; importedIds: readonly string[] } | null;
}

/** A module and everything it imports statically (what must be loaded before it can run). */
function staticImports(graph: ModuleGraph, id: string, seen = new Set<string>()): Set<string> {
  if (seen.has(id)) return seen;
  seen.add(id);
  for (const dep of graph.getModuleInfo(id)?.importedIds ?? []) staticImports(graph, dep, seen);
  return seen;
}

/**
 * Keeps every module the app's entry (index.html) imports statically in the entry chunk itself.
 * Left alone, Rolldown moves what the entry shares with its lazily loaded pages (React, the router,
 * the JSX runtime, the logo) into separate small chunks, which every page then fetches before the
 * entry can run: four more requests on each first load, although the entry is always loaded before
 * any page. Modules the viewer entry (viewer.html) also imports stay out, so the viewer page never
 * loads the app. Use `shell.group` in `output.codeSplitting.groups`; the plugin fills it in at the
 * end of the build's module graph, before chunks are made.
 */
export function entryShell(entrySuffix = '/index.html'): {
  plugin: Plugin;
  group: { name: string; test(id: string): boolean };
} {
  const modules = new Set<string>();
  const plugin: Plugin = {
    name: 'fieldline-entry-shell',
    apply: 'build',
    buildEnd(error) {
      if (error) return;
      const ids = [...this.getModuleIds()];
      const entries = ids.filter((id) => this.getModuleInfo(id)?.isEntry);
      const entry = entries.find((id) => id.endsWith(entrySuffix));
      if (!entry) this.error(`entry-shell: no entry ending in ${entrySuffix}`);
      const others = new Set<string>();
      for (const id of entries) if (id !== entry) staticImports(this, id, others);
      modules.clear();
      for (const id of staticImports(this, entry)) if (!others.has(id)) modules.add(id);
    },
  };
  // Named as the entry chunk and holding the entry module, the group is emitted as the entry chunk.
  return { plugin, group: { name: 'main', test: (id) => modules.has(id) } };
}
