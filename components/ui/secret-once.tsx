"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { copyText } from "@/dashboard/client/clipboard";

/** A secret (a webhook's signing secret, an API key), shown this once, with Copy; it is not kept anywhere once the dialog closes. */
export function SecretOnce({ secret, onDone, what = "secret", testId = "webhook-secret" }: { secret: string; onDone: () => void; what?: "secret" | "key"; testId?: string }) {
  const [notice, setNotice] = useState("");
  return (
    <>
      <p className="mt-3 rounded-md bg-slate-100 px-3 py-2 font-mono text-sm break-all" data-testid={testId}>
        {secret}
      </p>
      <p role="status" className="mt-2 min-h-5 text-sm text-slate-700">
        {notice}
      </p>
      <div className="mt-3 flex flex-wrap justify-end gap-2">
        <Button autoFocus onClick={() => void copyText(Promise.resolve(secret), `${what === "key" ? "Key" : "Secret"} copied to the clipboard.`, `Your browser did not allow copying: select the ${what} and copy it by hand.`).then(setNotice)}>
          Copy
        </Button>
        <Button variant="primary" onClick={onDone}>
          Done
        </Button>
      </div>
    </>
  );
}
