/** Saves `content` as a file through the browser's download, from memory (no server round trip). */
export function downloadFile(filename: string, content: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking in the same task can cancel the download in some browsers; a later task is safe.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
