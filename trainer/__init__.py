"""The rules of cribbage: cards, the show, the play, discards and score distributions.

>>> import trainer
>>> trainer.score_show(["5H", "5D", "5C", "JS"], "5S").total
29
"""

from .cards import DECK as DECK
from .cards import Card as Card
from .cards import Rank as Rank
from .cards import Suit as Suit
from .cards import as_card as as_card
from .cards import parse_cards as parse_cards
from .cards import parse_deal as parse_deal
from .discard import DiscardOption as DiscardOption
from .discard import analyze_discards as analyze_discards
from .errors import CribbageError as CribbageError
from .errors import DuplicateCardError as DuplicateCardError
from .errors import HandSizeError as HandSizeError
from .errors import IllegalPlayError as IllegalPlayError
from .errors import InvalidAnswerError as InvalidAnswerError
from .errors import InvalidCardError as InvalidCardError
from .errors import UnknownRulesError as UnknownRulesError
from .items import Kind as Kind
from .items import ScoreItem as ScoreItem
from .pegging import play_out as play_out
from .pegging import score_peg as score_peg
from .pegging import score_play as score_play
from .pegging import score_sequence as score_sequence
from .rules import FIVE_CARD as FIVE_CARD
from .rules import FOUR_HAND as FOUR_HAND
from .rules import RULESETS as RULESETS
from .rules import SIX_CARD as SIX_CARD
from .rules import THREE_HAND as THREE_HAND
from .rules import RuleSet as RuleSet
from .show import Breakdown as Breakdown
from .show import heels as heels
from .show import score_ranks as score_ranks
from .show import score_show as score_show
from .stats import score_distribution as score_distribution
