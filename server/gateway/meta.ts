import { CUBES, type CubeDeclaration, resolveMember } from './cubes';
import type { NormalisedQuery } from './query';

/**
 * What Cube's `/v1/meta` lists and what a `load` reply's `annotation` says about its members,
 * both read from the cube declarations (server/gateway/cubes.ts).
 */

const NO_DRILL = { drillMembers: [], drillMembersGrouped: { measures: [], dimensions: [] } };

function cubeMeta(name: string, cube: CubeDeclaration) {
  return {
    name,
    title: cube.title,
    description: cube.description,
    type: 'cube',
    isVisible: true,
    public: true,
    connectedComponent: 1,
    measures: Object.entries(cube.measures).map(([member, declaration]) => ({
      name: `${name}.${member}`,
      title: `${cube.title} ${declaration.title}`,
      shortTitle: declaration.title,
      type: 'number',
      aggType: declaration.type,
      cumulative: false,
      cumulativeTotal: false,
      isVisible: true,
      public: true,
      ...NO_DRILL,
    })),
    dimensions: Object.entries(cube.dimensions).map(([member, declaration]) => ({
      name: `${name}.${member}`,
      title: `${cube.title} ${declaration.title}`,
      shortTitle: declaration.title,
      type: declaration.type,
      suggestFilterValues: true,
      isVisible: true,
      public: true,
      primaryKey: false,
    })),
    segments: [],
    hierarchies: [],
    folders: [],
    nestedFolders: [],
  };
}

export type CubeMeta = ReturnType<typeof cubeMeta>;

/** GET /cubejs-api/v1/meta. */
export function metaReply(): { cubes: CubeMeta[] } {
  return { cubes: Object.entries(CUBES).map(([name, cube]) => cubeMeta(name, cube)) };
}

interface MemberAnnotation {
  title: string;
  shortTitle: string;
  type: string;
  granularity?: { name: string; title: string; interval: string };
}

function annotationOf(name: string): MemberAnnotation {
  const resolved = resolveMember(name);
  const short = resolved?.declaration.title ?? name;
  return { title: resolved?.title ?? name, shortTitle: short, type: resolved?.type ?? 'string' };
}

/** The `annotation` of a load reply: each returned member's title and type. */
export function annotationFor(query: NormalisedQuery) {
  const measures: Record<string, MemberAnnotation & typeof NO_DRILL> = {};
  const dimensions: Record<string, MemberAnnotation> = {};
  const timeDimensions: Record<string, MemberAnnotation> = {};
  for (const name of query.measures) measures[name] = { ...annotationOf(name), ...NO_DRILL };
  for (const name of query.dimensions) dimensions[name] = annotationOf(name);
  for (const td of query.timeDimensions) {
    if (!td.granularity) continue;
    const base = annotationOf(td.dimension);
    timeDimensions[`${td.dimension}.${td.granularity}`] = {
      ...base,
      title: `${base.title} (${td.granularity})`,
      granularity: { name: td.granularity, title: td.granularity, interval: `1 ${td.granularity}` },
    };
    timeDimensions[td.dimension] = base;
  }
  return { measures, dimensions, segments: {}, timeDimensions };
}
