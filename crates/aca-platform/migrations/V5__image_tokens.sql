-- Screenshots shown to the model and their tokens (a part of prompt_tokens), per run.
ALTER TABLE runs ADD COLUMN images BIGINT NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN image_tokens BIGINT NOT NULL DEFAULT 0;
