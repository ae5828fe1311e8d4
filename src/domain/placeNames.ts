/**
 * Floors and zones named with their building, so that "Level 2" of North Block and of South Block
 * can be told apart wherever one is chosen or listed.
 */

export interface NamedBuilding {
  id: number;
  name: string;
}

export interface NamedFloor {
  id: number;
  name: string;
  building_id: number;
}

/** "Level 2 · North Block"; the floor alone when its building is unknown. */
export function floorPlaceName(floorName: string, buildingName: string | null | undefined): string {
  return buildingName ? `${floorName} · ${buildingName}` : floorName;
}

/** A lookup from a floor's id to its name with its building's, built once per list of floors. */
export function floorPlaceNames(
  floors: readonly NamedFloor[],
  buildings: readonly NamedBuilding[],
): (floorId: number | null | undefined) => string | null {
  const buildingNames = new Map(buildings.map((building) => [building.id, building.name]));
  const names = new Map(
    floors.map((floor) => [floor.id, floorPlaceName(floor.name, buildingNames.get(floor.building_id))]),
  );
  return (floorId) => (floorId == null ? null : (names.get(floorId) ?? null));
}

/** "East wing (Level 2 · North Block)": a zone with its floor's place, as the start dialog lists zones. */
export function zonePlaceName(zoneName: string, floorPlace: string | null | undefined): string {
  return floorPlace ? `${zoneName} (${floorPlace})` : zoneName;
}

/** Where something is on a site, by name: its building, floor and (when known) zone. */
export interface SitePlace {
  building: string | null;
  floor: string | null;
  zone: string | null;
}

/** A place in words: its zone with the floor and building, or the floor with its building. */
export function sitePlaceName(place: SitePlace): string | null {
  const floor = place.floor === null ? place.building : floorPlaceName(place.floor, place.building);
  if (place.zone === null) return floor;
  return zonePlaceName(place.zone, floor);
}
