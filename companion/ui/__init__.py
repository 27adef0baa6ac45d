"""Terminal views (rich). Views read engine state; they never change it."""
