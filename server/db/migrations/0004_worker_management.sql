CREATE TABLE "helmet_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"inventory_item_id" integer NOT NULL,
	"worker_id" integer NOT NULL,
	"assigned_at" timestamp with time zone NOT NULL,
	"unassigned_at" timestamp with time zone,
	"assigned_by" integer,
	"unassigned_by" integer
);
--> statement-breakpoint
ALTER TABLE "helmet_assignments" ADD CONSTRAINT "helmet_assignments_inventory_item_id_inventory_items_id_fk" FOREIGN KEY ("inventory_item_id") REFERENCES "public"."inventory_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "helmet_assignments" ADD CONSTRAINT "helmet_assignments_worker_id_workers_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."workers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "helmet_assignments" ADD CONSTRAINT "helmet_assignments_assigned_by_users_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "helmet_assignments" ADD CONSTRAINT "helmet_assignments_unassigned_by_users_id_fk" FOREIGN KEY ("unassigned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "helmet_assignments_worker_idx" ON "helmet_assignments" USING btree ("worker_id","assigned_at");--> statement-breakpoint
CREATE INDEX "helmet_assignments_item_idx" ON "helmet_assignments" USING btree ("inventory_item_id","assigned_at");--> statement-breakpoint
CREATE UNIQUE INDEX "helmet_assignments_open_unique" ON "helmet_assignments" USING btree ("inventory_item_id") WHERE "helmet_assignments"."unassigned_at" is null;--> statement-breakpoint
INSERT INTO "helmet_assignments" ("inventory_item_id", "worker_id", "assigned_at")
SELECT "id", "worker_id", coalesce("assigned_at", "created_at") FROM "inventory_items"
WHERE "worker_id" IS NOT NULL AND "type" = 'helmet';
