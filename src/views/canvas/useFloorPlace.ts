import type { Floor } from '../../domain/floor';
import { floorPlaceName } from '../../domain/placeNames';
import { useSelection } from '../shell/selection';

/**
 * The floor's name with its building's ("Level 2 · North Block"), from the buildings of the site
 * on screen (every floor canvas shows a floor of that site); the floor alone until they load.
 */
export function useFloorPlace(floor: Pick<Floor, 'name' | 'building_id'>): string {
  const { buildings } = useSelection();
  const building = buildings.find((candidate) => candidate.id === floor.building_id);
  return floorPlaceName(floor.name, building?.name);
}
