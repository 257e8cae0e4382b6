/**
 * Copying from the dashboard. Safari allows clipboard writes only within the click, so a text still on its way
 * (the API key, fetched on demand) is handed over as a promise; browsers without ClipboardItem get the text
 * once it has arrived.
 */
async function copyToClipboard(text: Promise<string>): Promise<void> {
  if (typeof ClipboardItem !== "undefined" && navigator.clipboard?.write) {
    const blob = text.then((t) => new Blob([t], { type: "text/plain" }));
    await navigator.clipboard.write([new ClipboardItem({ "text/plain": blob })]);
  } else {
    await navigator.clipboard.writeText(await text);
  }
}

/** Copies, and says how it went: a failed fetch says why, a refused clipboard what to do instead. */
export async function copyText(
  text: Promise<string>,
  done = "API key copied to the clipboard.",
  refused = "Your browser did not allow copying: use Reveal and copy it by hand.",
): Promise<string> {
  try {
    await copyToClipboard(text);
    return done;
  } catch {
    const fetchError = await text.then(
      () => null,
      (error: Error) => error,
    );
    return fetchError ? fetchError.message : refused;
  }
}
