/** Scrolls to a section of the current page by id (hash routing owns the URL fragment, so no #anchors). */
export function scrollToSection(id: string): void {
  document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}
