import { useMemo } from "react";
import { useNetworks } from "@/dashboard/client/hooks/use-networks";
import { headlineNetworks, type HeadlineNetwork } from "@/dashboard/client/tracked/networks";

/**
 * The networks the account shows, in display order, as the pages' tables and charts show them: `shown` is
 * undefined until the account's choice is known (the columns would otherwise change under the reader).
 */
export function useShownNetworks() {
  const query = useNetworks();
  const ids = query.data?.shown;
  const shown: HeadlineNetwork[] | undefined = useMemo(() => ids && headlineNetworks(ids), [ids]);
  return { shown, isError: query.isError, error: query.error, refetch: query.refetch };
}
