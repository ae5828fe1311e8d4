ALTER TABLE "workers" ADD COLUMN "helmet_search_text" text;--> statement-breakpoint
ALTER TABLE "inventory_items" DROP COLUMN "search_text";--> statement-breakpoint
-- Copies the worn helmet's id onto its wearer for the worker list's search. It reads the helmet
-- table again instead of trusting OLD and NEW, so a hand-over lands right in either order.
CREATE FUNCTION "refresh_helmet_search_text"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "workers" w SET "helmet_search_text" = (
    SELECT lower(i."wnt_inventory_id") FROM "inventory_items" i WHERE i."worker_id" = w."id" LIMIT 1
  )
  WHERE w."id" IN (
    CASE WHEN TG_OP <> 'INSERT' THEN OLD."worker_id" END,
    CASE WHEN TG_OP <> 'DELETE' THEN NEW."worker_id" END
  );
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "helmet_worn_search_text" AFTER INSERT ON "inventory_items"
  FOR EACH ROW WHEN (NEW.worker_id IS NOT NULL) EXECUTE FUNCTION "refresh_helmet_search_text"();
--> statement-breakpoint
CREATE TRIGGER "helmet_removed_search_text" AFTER DELETE ON "inventory_items"
  FOR EACH ROW WHEN (OLD.worker_id IS NOT NULL) EXECUTE FUNCTION "refresh_helmet_search_text"();
--> statement-breakpoint
CREATE TRIGGER "helmet_changed_search_text" AFTER UPDATE OF worker_id, wnt_inventory_id ON "inventory_items"
  FOR EACH ROW
  WHEN (OLD.worker_id IS DISTINCT FROM NEW.worker_id OR OLD.wnt_inventory_id IS DISTINCT FROM NEW.wnt_inventory_id)
  EXECUTE FUNCTION "refresh_helmet_search_text"();
--> statement-breakpoint
UPDATE "workers" w SET "helmet_search_text" = lower(i."wnt_inventory_id")
  FROM "inventory_items" i WHERE i."worker_id" = w."id";
