"""The pipeline: inputs walked, loaded, checked against the schema and fed to the engine."""
