/** The URLs an import returns: trimmed, each once, in first-seen order, at most `max` of them. */
export class UrlList {
  readonly urls: string[] = [];
  /** A URL beyond `max` was found (and dropped): the import stops reading. */
  truncated = false;
  private readonly seen = new Set<string>();

  constructor(private readonly max: number) {}

  add(found: string): void {
    const url = found.trim();
    if (this.truncated || url === "" || this.seen.has(url)) return;
    if (this.urls.length >= this.max) {
      this.truncated = true;
      return;
    }
    this.seen.add(url);
    this.urls.push(url);
  }
}
