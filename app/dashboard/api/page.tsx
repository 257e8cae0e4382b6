import type { Metadata } from "next";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { dashboard } from "@/dashboard/server/context";
import { ShareCountApi } from "@/dashboard/server/api-client";
import { openApiSchema, operationsOf, type Operation } from "@/dashboard/client/api-reference";
import { ErrorState } from "@/components/ui/states";
import { ApiReference } from "./api-reference";

export const metadata: Metadata = { title: "API reference" };

/** The API's reference, rendered from the OpenAPI document the API generates. */
export default async function ApiReferencePage() {
  const account = await requireAccount();
  const { accounts, apiUrl } = dashboard();
  let operations: Operation[] | null = null;
  try {
    const key = await accounts.apiKeyOf(account.id);
    if (key) operations = operationsOf(openApiSchema.parse(await new ShareCountApi(apiUrl, key).openApi()));
  } catch {
    operations = null;
  }
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">API reference</h1>
      <p className="text-sm text-slate-600">
        Every endpoint of v1.0, v1.1 and v2, from the API&apos;s own{" "}
        <a className="text-brand-700 underline" href="/api/dashboard/openapi">
          OpenAPI 3.1 document
        </a>
        . The examples use <code>YOUR_KEY</code> until you reveal your key.
      </p>
      {operations ? <ApiReference operations={operations} /> : <ErrorState message="The API's reference cannot be loaded right now. Reload the page shortly." />}
    </div>
  );
}
