/**
 * Courses, events and plans are titled and described in French and English: the same four fields
 * in the API (`title_fr`…) and the same four columns (`titleFr`…), mapped here once each way.
 */
interface NamingFields<T> {
  title_fr: T;
  title_en: T;
  description_fr: T;
  description_en: T;
}

interface NamingColumns<T> {
  titleFr: T;
  titleEn: T;
  descriptionFr: T;
  descriptionEn: T;
}

/** A body's titles and descriptions as columns (undefined stays undefined in a partial update). */
export function namingColumns<B extends Partial<NamingFields<string>>>(
  body: B,
): {
  titleFr: B["title_fr"];
  titleEn: B["title_en"];
  descriptionFr: B["description_fr"];
  descriptionEn: B["description_en"];
} {
  return {
    titleFr: body.title_fr,
    titleEn: body.title_en,
    descriptionFr: body.description_fr,
    descriptionEn: body.description_en,
  };
}

/** A row's titles and descriptions as the API names them. */
export function namingFields<T>(row: NamingColumns<T>): NamingFields<T> {
  return {
    title_fr: row.titleFr,
    title_en: row.titleEn,
    description_fr: row.descriptionFr,
    description_en: row.descriptionEn,
  };
}
