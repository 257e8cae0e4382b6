import { redirect } from "next/navigation";
import { currentAccount } from "@/lib/auth/current-account";

export const dynamic = "force-dynamic";

export default async function Home() {
  redirect((await currentAccount()) ? "/dashboard" : "/sign-in");
}
