import { inlineCode } from "@/dashboard/client/inline-code";

/** A description from the API's document, its `code` spans as code: text nodes only, never HTML. */
export function InlineText({ text }: { text: string }) {
  return (
    <>
      {inlineCode(text).map((piece, i) =>
        piece.code ? (
          <code key={i} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800">
            {piece.text}
          </code>
        ) : (
          <span key={i}>{piece.text}</span>
        ),
      )}
    </>
  );
}
