CREATE TABLE "evacuation_alarms" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"command_id" text NOT NULL,
	"inventory_item_id" integer NOT NULL,
	"worker_id" integer,
	"kind" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "evacuation_marks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"worker_id" integer,
	"roll_person_id" integer,
	"reason" text NOT NULL,
	"marked_by" integer,
	"marked_at" timestamp with time zone NOT NULL,
	"undone_by" integer,
	"undone_at" timestamp with time zone,
	CONSTRAINT "evacuation_marks_one_subject" CHECK (("evacuation_marks"."worker_id" is null) <> ("evacuation_marks"."roll_person_id" is null))
);
--> statement-breakpoint
CREATE TABLE "evacuation_roll_people" (
	"id" serial PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"name" text NOT NULL,
	"company" text DEFAULT '' NOT NULL,
	"added_by" integer,
	"added_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evacuation_scope_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"kind" text NOT NULL,
	"detail" jsonb NOT NULL,
	"by" integer,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "incident_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"incident_id" integer NOT NULL,
	"kind" text NOT NULL,
	"level" integer,
	"by" integer,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_safety_settings" (
	"site_id" integer PRIMARY KEY NOT NULL,
	"possibly_inside_hours" numeric,
	"escalation_levels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "incidents" DROP CONSTRAINT "incidents_type_check";--> statement-breakpoint
ALTER TABLE "incidents" DROP CONSTRAINT "incidents_status_check";--> statement-breakpoint
ALTER TABLE "evacuation_workers" ADD COLUMN "origin_floor_id" integer;--> statement-breakpoint
ALTER TABLE "evacuation_workers" ADD COLUMN "left_floor_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "evacuation_workers" ADD COLUMN "redirected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "evacuation_workers" ADD COLUMN "redirect_zone_id" integer;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "level" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "next_escalation_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "acknowledged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "acknowledged_by" integer;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "resolved_by" integer;--> statement-breakpoint
ALTER TABLE "evacuation_alarms" ADD CONSTRAINT "evacuation_alarms_session_id_evacuation_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."evacuation_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evacuation_marks" ADD CONSTRAINT "evacuation_marks_session_id_evacuation_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."evacuation_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evacuation_marks" ADD CONSTRAINT "evacuation_marks_roll_person_id_evacuation_roll_people_id_fk" FOREIGN KEY ("roll_person_id") REFERENCES "public"."evacuation_roll_people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evacuation_marks" ADD CONSTRAINT "evacuation_marks_marked_by_users_id_fk" FOREIGN KEY ("marked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evacuation_marks" ADD CONSTRAINT "evacuation_marks_undone_by_users_id_fk" FOREIGN KEY ("undone_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evacuation_roll_people" ADD CONSTRAINT "evacuation_roll_people_session_id_evacuation_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."evacuation_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evacuation_roll_people" ADD CONSTRAINT "evacuation_roll_people_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evacuation_scope_events" ADD CONSTRAINT "evacuation_scope_events_session_id_evacuation_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."evacuation_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evacuation_scope_events" ADD CONSTRAINT "evacuation_scope_events_by_users_id_fk" FOREIGN KEY ("by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_events" ADD CONSTRAINT "incident_events_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_events" ADD CONSTRAINT "incident_events_by_users_id_fk" FOREIGN KEY ("by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_safety_settings" ADD CONSTRAINT "site_safety_settings_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "evacuation_alarms_command_unique" ON "evacuation_alarms" USING btree ("command_id","inventory_item_id");--> statement-breakpoint
CREATE INDEX "evacuation_alarms_session_idx" ON "evacuation_alarms" USING btree ("session_id","inventory_item_id");--> statement-breakpoint
CREATE INDEX "evacuation_marks_session_idx" ON "evacuation_marks" USING btree ("session_id","id");--> statement-breakpoint
CREATE INDEX "evacuation_roll_people_session_idx" ON "evacuation_roll_people" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "evacuation_scope_events_session_idx" ON "evacuation_scope_events" USING btree ("session_id","id");--> statement-breakpoint
CREATE INDEX "incident_events_incident_idx" ON "incident_events" USING btree ("incident_id","id");--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "incidents_next_escalation_idx" ON "incidents" USING btree ("next_escalation_at");--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_type_check" CHECK ("incidents"."type" in ('sos', 'fall', 'noMotion', 'restrictedZone', 'reEntry'));--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_status_check" CHECK ("incidents"."status" in ('open', 'escalated', 'acknowledged', 'resolved'));