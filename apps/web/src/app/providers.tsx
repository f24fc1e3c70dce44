import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { AntdHostSlot } from "../components/antd-host-slot";
import { queryClient } from "../lib/query-client";

/**
 * `client`: the server renderer's own, one per page; the browser's shared one otherwise.
 * antd's providers are not here: see `AntdRoot`, which the antd-built pages bring with them,
 * and the host of their toasts, mounted beside the routes once antd has loaded.
 */
export function Providers({ children, client = queryClient }: { children: ReactNode; client?: QueryClient }) {
  return (
    <QueryClientProvider client={client}>
      {children}
      <AntdHostSlot />
    </QueryClientProvider>
  );
}
