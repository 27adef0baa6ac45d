"""Sub-commands of the ``companion`` command line, one module each, imported lazily."""
