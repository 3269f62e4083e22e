/** Makes the root actors and API client reachable from views (the same object the router gets). */
import { createContext, useContext, type ReactNode } from 'react';
import type { AppContext } from './context.ts';

const ServicesContext = createContext<AppContext | null>(null);

export function ServicesProvider({ services, children }: { services: AppContext; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): AppContext {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('No ServicesProvider');
  return services;
}
