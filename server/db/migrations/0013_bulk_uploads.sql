CREATE TABLE "activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"activity_code_id" integer NOT NULL,
	"name" text NOT NULL,
	"crew_id" integer,
	"location_group_id" integer,
	"zone_id" integer,
	"day" date NOT NULL,
	"target_quantity" numeric(12, 2),
	"planned_quantity" numeric(12, 2) NOT NULL,
	"planned_hours" numeric(8, 2) NOT NULL,
	"status" text DEFAULT 'assigned' NOT NULL,
	"upload_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "activities_status_check" CHECK ("activities"."status" in ('assigned', 'in_progress', 'delayed', 'done', 'in_review', 'approved_by_cm', 'approved'))
);
--> statement-breakpoint
CREATE TABLE "activity_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"uom" text NOT NULL,
	"target_rate" numeric(12, 4) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bulk_upload_rows" (
	"upload_id" text NOT NULL,
	"row_number" integer NOT NULL,
	"cells" jsonb NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "bulk_upload_rows_upload_id_row_number_pk" PRIMARY KEY("upload_id","row_number")
);
--> statement-breakpoint
CREATE TABLE "bulk_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"content_hash" text NOT NULL,
	"status" text NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"error_row_count" integer DEFAULT 0 NOT NULL,
	"same_file_as" text,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"committed_at" timestamp with time zone,
	"committed_by" integer,
	CONSTRAINT "bulk_uploads_status_check" CHECK ("bulk_uploads"."status" in ('validating', 'draft', 'committed', 'cancelled', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "crew_group_crews" (
	"group_id" integer NOT NULL,
	"crew_id" integer NOT NULL,
	CONSTRAINT "crew_group_crews_group_id_crew_id_pk" PRIMARY KEY("group_id","crew_id")
);
--> statement-breakpoint
CREATE TABLE "crew_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "location_group_zones" (
	"group_id" integer NOT NULL,
	"zone_id" integer NOT NULL,
	CONSTRAINT "location_group_zones_group_id_zone_id_pk" PRIMARY KEY("group_id","zone_id")
);
--> statement-breakpoint
CREATE TABLE "location_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "manual_attendance" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"worker_id" integer NOT NULL,
	"day" date NOT NULL,
	"check_in" text,
	"check_out" text,
	"present" boolean NOT NULL,
	"notes" text,
	"upload_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reported_hours" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"worker_id" integer NOT NULL,
	"day" date NOT NULL,
	"hours" numeric(6, 2) NOT NULL,
	"activity_id" integer,
	"notes" text,
	"upload_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reported_hours_worker_day_activity_key" UNIQUE NULLS NOT DISTINCT("worker_id","day","activity_id")
);
--> statement-breakpoint
CREATE TABLE "subcontractor_group_members" (
	"group_id" integer NOT NULL,
	"subcontractor_id" integer NOT NULL,
	CONSTRAINT "subcontractor_group_members_group_id_subcontractor_id_pk" PRIMARY KEY("group_id","subcontractor_id")
);
--> statement-breakpoint
CREATE TABLE "subcontractor_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "worker_location_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"worker_id" integer NOT NULL,
	"location_group_id" integer NOT NULL,
	"assigned_at" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "worker_role_group_members" (
	"group_id" integer NOT NULL,
	"worker_role_id" integer NOT NULL,
	CONSTRAINT "worker_role_group_members_group_id_worker_role_id_pk" PRIMARY KEY("group_id","worker_role_id")
);
--> statement-breakpoint
CREATE TABLE "worker_role_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "worker_status_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"worker_id" integer NOT NULL,
	"status_id" integer NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "worker_status_assignments_range_check" CHECK ("worker_status_assignments"."ends_on" is null or "worker_status_assignments"."ends_on" >= "worker_status_assignments"."starts_on")
);
--> statement-breakpoint
CREATE TABLE "worker_statuses" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_activity_code_id_activity_codes_id_fk" FOREIGN KEY ("activity_code_id") REFERENCES "public"."activity_codes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_crew_id_crews_id_fk" FOREIGN KEY ("crew_id") REFERENCES "public"."crews"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_location_group_id_location_groups_id_fk" FOREIGN KEY ("location_group_id") REFERENCES "public"."location_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_codes" ADD CONSTRAINT "activity_codes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_upload_rows" ADD CONSTRAINT "bulk_upload_rows_upload_id_bulk_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."bulk_uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_uploads" ADD CONSTRAINT "bulk_uploads_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_uploads" ADD CONSTRAINT "bulk_uploads_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_uploads" ADD CONSTRAINT "bulk_uploads_committed_by_users_id_fk" FOREIGN KEY ("committed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crew_group_crews" ADD CONSTRAINT "crew_group_crews_group_id_crew_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."crew_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crew_group_crews" ADD CONSTRAINT "crew_group_crews_crew_id_crews_id_fk" FOREIGN KEY ("crew_id") REFERENCES "public"."crews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crew_groups" ADD CONSTRAINT "crew_groups_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_group_zones" ADD CONSTRAINT "location_group_zones_group_id_location_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."location_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_group_zones" ADD CONSTRAINT "location_group_zones_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_groups" ADD CONSTRAINT "location_groups_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manual_attendance" ADD CONSTRAINT "manual_attendance_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manual_attendance" ADD CONSTRAINT "manual_attendance_worker_id_workers_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."workers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reported_hours" ADD CONSTRAINT "reported_hours_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reported_hours" ADD CONSTRAINT "reported_hours_worker_id_workers_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."workers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reported_hours" ADD CONSTRAINT "reported_hours_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subcontractor_group_members" ADD CONSTRAINT "subcontractor_group_members_group_id_subcontractor_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."subcontractor_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subcontractor_group_members" ADD CONSTRAINT "subcontractor_group_members_subcontractor_id_subcontractors_id_fk" FOREIGN KEY ("subcontractor_id") REFERENCES "public"."subcontractors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subcontractor_groups" ADD CONSTRAINT "subcontractor_groups_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worker_location_assignments" ADD CONSTRAINT "worker_location_assignments_worker_id_workers_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."workers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worker_location_assignments" ADD CONSTRAINT "worker_location_assignments_location_group_id_location_groups_id_fk" FOREIGN KEY ("location_group_id") REFERENCES "public"."location_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worker_role_group_members" ADD CONSTRAINT "worker_role_group_members_group_id_worker_role_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."worker_role_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worker_role_group_members" ADD CONSTRAINT "worker_role_group_members_worker_role_id_worker_roles_id_fk" FOREIGN KEY ("worker_role_id") REFERENCES "public"."worker_roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worker_role_groups" ADD CONSTRAINT "worker_role_groups_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worker_status_assignments" ADD CONSTRAINT "worker_status_assignments_worker_id_workers_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."workers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worker_status_assignments" ADD CONSTRAINT "worker_status_assignments_status_id_worker_statuses_id_fk" FOREIGN KEY ("status_id") REFERENCES "public"."worker_statuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worker_statuses" ADD CONSTRAINT "worker_statuses_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activities_site_day_name_unique" ON "activities" USING btree ("site_id","day",lower(trim("name")));--> statement-breakpoint
CREATE INDEX "activities_site_day_idx" ON "activities" USING btree ("site_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "activity_codes_site_code_unique" ON "activity_codes" USING btree ("site_id",lower(trim("code")));--> statement-breakpoint
CREATE INDEX "bulk_uploads_site_kind_idx" ON "bulk_uploads" USING btree ("site_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "bulk_uploads_site_hash_idx" ON "bulk_uploads" USING btree ("site_id","kind","content_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "crew_groups_site_name_unique" ON "crew_groups" USING btree ("site_id",lower(trim("name")));--> statement-breakpoint
CREATE INDEX "location_group_zones_zone_idx" ON "location_group_zones" USING btree ("zone_id");--> statement-breakpoint
CREATE UNIQUE INDEX "location_groups_site_name_unique" ON "location_groups" USING btree ("site_id",lower(trim("name")));--> statement-breakpoint
CREATE UNIQUE INDEX "manual_attendance_worker_day_unique" ON "manual_attendance" USING btree ("worker_id","day");--> statement-breakpoint
CREATE INDEX "manual_attendance_site_day_idx" ON "manual_attendance" USING btree ("site_id","day");--> statement-breakpoint
CREATE INDEX "reported_hours_site_day_idx" ON "reported_hours" USING btree ("site_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "subcontractor_groups_site_name_unique" ON "subcontractor_groups" USING btree ("site_id",lower(trim("name")));--> statement-breakpoint
CREATE INDEX "worker_location_assignments_worker_idx" ON "worker_location_assignments" USING btree ("worker_id","assigned_at");--> statement-breakpoint
CREATE UNIQUE INDEX "worker_role_groups_site_name_unique" ON "worker_role_groups" USING btree ("site_id",lower(trim("name")));--> statement-breakpoint
CREATE INDEX "worker_status_assignments_worker_idx" ON "worker_status_assignments" USING btree ("worker_id","starts_on");--> statement-breakpoint
CREATE UNIQUE INDEX "worker_statuses_site_name_unique" ON "worker_statuses" USING btree ("site_id",lower(trim("name")));--> statement-breakpoint
-- A bulk upload commits thousands of workers in one transaction: the revision moves once per site
-- and transaction (the first changed row marks it), not once per row, which wrote the revision
-- row again for every worker at commit.
CREATE OR REPLACE FUNCTION "bump_workforce_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_site integer := coalesce(NEW.site_id, OLD.site_id);
  mark text := 'sitewatch.workforce_bumped_' || changed_site;
BEGIN
  IF current_setting(mark, true) = txid_current()::text THEN
    RETURN NULL;
  END IF;
  INSERT INTO "workforce_revisions" AS r ("site_id", "revision")
  SELECT changed_site, 1 WHERE EXISTS (SELECT 1 FROM "sites" WHERE "id" = changed_site)
  ON CONFLICT ("site_id") DO UPDATE SET "revision" = r."revision" + 1;
  PERFORM set_config(mark, txid_current()::text, true);
  RETURN NULL;
END
$$;
