CREATE TABLE "workforce_revisions" (
	"site_id" integer PRIMARY KEY NOT NULL,
	"revision" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inventory_items" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower("inventory_items"."wnt_inventory_id")) STORED;--> statement-breakpoint
ALTER TABLE "workers" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower("workers"."name") || chr(31) || lower(coalesce("workers"."worker_tag_id", ''))) STORED;--> statement-breakpoint
-- Moves a site's workforce revision once per changed row, at commit (deferred): the revision row is
-- locked last, so two writers of one site queue there instead of deadlocking on each other's rows.
CREATE FUNCTION "bump_workforce_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_site integer := coalesce(NEW.site_id, OLD.site_id);
BEGIN
  INSERT INTO "workforce_revisions" AS r ("site_id", "revision")
  SELECT changed_site, 1 WHERE EXISTS (SELECT 1 FROM "sites" WHERE "id" = changed_site)
  ON CONFLICT ("site_id") DO UPDATE SET "revision" = r."revision" + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "workers_workforce_revision" AFTER INSERT OR UPDATE OR DELETE ON "workers"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_workforce_revision"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "helmet_worn_workforce_revision" AFTER INSERT ON "inventory_items"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.worker_id IS NOT NULL)
  EXECUTE FUNCTION "bump_workforce_revision"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "helmet_removed_workforce_revision" AFTER DELETE ON "inventory_items"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.worker_id IS NOT NULL)
  EXECUTE FUNCTION "bump_workforce_revision"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "helmet_changed_workforce_revision" AFTER UPDATE OF worker_id, wnt_inventory_id ON "inventory_items"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.worker_id IS DISTINCT FROM NEW.worker_id OR OLD.wnt_inventory_id IS DISTINCT FROM NEW.wnt_inventory_id)
  EXECUTE FUNCTION "bump_workforce_revision"();
