import { render } from "@testing-library/react";
import type { ReactElement, ReactNode } from "react";
import { createMemoryRouter, MemoryRouter, matchRoutes, RouterProvider } from "react-router";
import { AppProviders } from "../app/providers";
import { routes } from "../app/router";
import { createQueryClient } from "../lib/query-client";

/**
 * The whole app at a given URL, as a user would meet it. The code of the pages the URL shows is
 * loaded first: a first visit's wait for it (seconds when the machine is busy, as the test
 * transforms the page) belongs to no test's 20 s wait for what the page then shows.
 */
export async function renderApp(url: string) {
  const matched = matchRoutes(routes, url) ?? [];
  await Promise.all(
    matched.map(({ route }) => (route.element as ReactElement<{ load?: () => Promise<unknown> }> | undefined)?.props.load?.()),
  );
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const result = render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router };
}

/**
 * One component inside the real providers (theme, i18n, query cache, auth, toasts); `rerender`
 * gives it new props inside the same providers and cache.
 */
export function renderWithProviders(ui: ReactNode) {
  const queryClient = createQueryClient();
  const wrap = (node: ReactNode) => (
    <AppProviders queryClient={queryClient}>
      <MemoryRouter>{node}</MemoryRouter>
    </AppProviders>
  );
  const result = render(wrap(ui));
  return { ...result, rerender: (next: ReactNode) => result.rerender(wrap(next)) };
}
