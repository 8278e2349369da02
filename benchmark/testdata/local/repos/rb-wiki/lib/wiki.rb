require_relative "wiki/page"
require_relative "wiki/store"

module Wiki
  SLUG = /\A[a-z0-9]+(?:-[a-z0-9]+)*\z/

  def self.valid_slug?(slug)
    slug.is_a?(String) && slug.length <= 80 && SLUG.match?(slug)
  end
end
