"""Pure rules engines, one package per game. They import nothing from hal/, table/ or ui/."""
