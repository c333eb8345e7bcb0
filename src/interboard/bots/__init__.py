"""Players that choose orders through the public interface a person uses (layer 4 of DESIGN.md)."""
