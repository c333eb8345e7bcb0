"""Board graph layer: map data, spaces, locations and adjacency (rule-family agnostic)."""

from .errors import MapDataError
from .loader import board_from_data, can_stand, load_board, load_packaged_board, packaged_board_names
from .model import Board, Location, Point, Power, Region, Space, SpaceKind, StartPosition, UnitKind

__all__ = [
    "Board",
    "Location",
    "MapDataError",
    "Point",
    "Power",
    "Region",
    "Space",
    "SpaceKind",
    "StartPosition",
    "UnitKind",
    "board_from_data",
    "can_stand",
    "load_board",
    "load_packaged_board",
    "packaged_board_names",
]
