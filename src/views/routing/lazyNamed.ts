import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { importWhenOnline } from '../shared/importWhenOnline';

/**
 * `React.lazy` for a module that exports a prop-less page or screen by name: the module becomes a
 * chunk of its own, downloaded the first time the component renders (again once back online).
 */
export function lazyNamed<Name extends string>(
  load: () => Promise<Record<NoInfer<Name>, ComponentType>>,
  name: Name,
): LazyExoticComponent<ComponentType> {
  return lazy(async () => ({ default: (await importWhenOnline(load))[name] }));
}
