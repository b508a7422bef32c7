//! Text in and out of the model: the checkpoint's tokenizer and chat template.
