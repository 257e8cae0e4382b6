import type { Metadata } from "next";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { accountApi } from "@/dashboard/server/overview";
import { openApiSchema, operationsOf, type Operation } from "@/dashboard/client/api-reference";
import { ErrorState } from "@/components/ui/states";
import { ApiReference } from "./api-reference";

export const metadata: Metadata = { title: "API reference" };

/** The API's reference, rendered from the OpenAPI document the API generates. */
export default async function ApiReferencePage() {
  const account = await requireAccount();
  let operations: Operation[] | null = null;
  try {
    operations = operationsOf(openApiSchema.parse(await accountApi(account.id).openApi()));
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
        . The examples use <code>YOUR_KEY</code> until you paste a key below (it stays in this page).
      </p>
      {operations ? <ApiReference operations={operations} /> : <ErrorState message="The API's reference cannot be loaded right now. Reload the page shortly." />}
    </div>
  );
}
