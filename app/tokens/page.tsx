import type { Metadata } from "next";
import { TokensPage } from "@/components/tokens/tokens-page";

export const metadata: Metadata = { title: "Tokens · Datastore Explorer" };

export default function Tokens() {
  // the token lives in the browser's storage: the page is prerendered and fills in there
  return <TokensPage />;
}
