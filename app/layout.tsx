import type { ReactNode } from "react";

export const metadata = {
  title: "sharecount",
  description: "Self-hosted social share counts, compatible with the SharedCount API",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", margin: "0 auto", maxWidth: "44rem", padding: "2rem 1rem" }}>
        {children}
      </body>
    </html>
  );
}
