-- CreateTable
CREATE TABLE "workout_route" (
    "workout_id" UUID NOT NULL,
    "segments" JSONB NOT NULL,
    "splits" JSONB NOT NULL,

    CONSTRAINT "workout_route_pkey" PRIMARY KEY ("workout_id")
);

-- AddForeignKey
ALTER TABLE "workout_route" ADD CONSTRAINT "workout_route_workout_id_fkey" FOREIGN KEY ("workout_id") REFERENCES "workout"("id") ON DELETE CASCADE ON UPDATE CASCADE;
