import { useEffect } from 'react';

export const SITE_TITLE = 'Fieldline — FEA in the browser';

/** Sets the tab's title for the page: `<page> — Fieldline` (the site title when none). */
export function usePageTitle(page?: string): void {
  useEffect(() => {
    document.title = page ? `${page} — Fieldline` : SITE_TITLE;
  }, [page]);
}
